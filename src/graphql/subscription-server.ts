import { GraphQLError, type GraphQLSchema } from 'graphql';
import { Errors } from '../errors/errors';
import { CloseCode, type Disposable } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { WebSocketServer } from 'ws';
import { newRequestId } from '../http/request-id';
import type { Principal } from '../keys/principal';
import { authenticate, connectionSecret } from './authenticate';
import { operationContext, type GraphqlContext, type GraphqlShared } from './context';
import { formatGraphqlError, isInternalError, unauthenticated, withRequestId } from './errors';

/** What a graphql-ws connection knows once it is accepted. */
type ConnectionAuth = {
  secret?: string;
  principal?: Principal;
};

/**
 * graphql-ws on `wsServer`. The key comes in the connection params; a
 * connection without a valid one is closed with 4401 before any operation.
 * Each operation (each subscription) gets its own request id.
 */
export function serveSubscriptions(wsServer: WebSocketServer, schema: GraphQLSchema, shared: GraphqlShared): Disposable {
  const { keys } = shared.services;
  return useServer<Record<string, unknown> | undefined, ConnectionAuth>(
    {
      schema,
      onConnect: async (ctx) => {
        const secret = connectionSecret(ctx.connectionParams);
        const principal = await authenticate(keys, secret);
        if (!principal) {
          // graphql-ws would close a refused connection with 4403 Forbidden; a missing or bad key is 4401.
          ctx.extra.socket.close(CloseCode.Unauthorized, 'Unauthorized');
          return false;
        }
        ctx.extra.secret = secret;
        ctx.extra.principal = principal;
        return true;
      },
      onSubscribe: async (ctx) => {
        // While shutting down, a new stream would only be cut (and recorded as abandoned) moments later.
        if (shared.isDraining()) {
          const refusal = Errors.shuttingDown();
          return [new GraphQLError(refusal.message, { extensions: { code: refusal.code, status: refusal.status } })];
        }
        // A key revoked or expired while its connection stays open stops working at its next operation.
        const principal = await authenticate(keys, ctx.extra.secret);
        if (!principal) return [unauthenticated(ctx.extra.secret, newRequestId())];
        ctx.extra.principal = principal;
      },
      context: (ctx): GraphqlContext =>
        operationContext(shared, ctx.extra.principal!, { requestId: newRequestId(), createdAt: new Date(), startedAt: performance.now() }),
      onNext: (_ctx, _id, _payload, args, result) => {
        if (!result.errors) return;
        const context = args.contextValue as GraphqlContext;
        const errors = result.errors.map((error) => {
          if (isInternalError(error)) context.logger.error('GraphQL operation failed', { err: error.originalError ?? error });
          return withRequestId(formatGraphqlError(error.toJSON(), error), context.requestId);
        });
        return { ...result, errors };
      },
    },
    wsServer,
  );
}
