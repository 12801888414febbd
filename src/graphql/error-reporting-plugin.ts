import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphqlContext } from './context';
import { isInternalError, withRequestId } from './errors';

/**
 * Puts the request id on every error of an HTTP response, so a client can
 * report it, and logs internal errors (which the client sees only as
 * "internal error") with their stack and that id. Apollo's `formatError`
 * cannot do either: it does not see the request.
 */
export function errorReportingPlugin<C extends Pick<GraphqlContext, 'requestId' | 'logger'>>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            if (isInternalError(error)) contextValue.logger.error('GraphQL operation failed', { err: unwrapResolverError(error) });
          }
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
          response.body.singleResult.errors = response.body.singleResult.errors.map((error) => withRequestId(error, contextValue.requestId));
        },
      };
    },
  };
}
