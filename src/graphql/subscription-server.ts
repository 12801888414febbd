import { GraphQLError, getOperationAST, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema, type ValidationRule } from 'graphql';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { CloseCode, type Disposable } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { WebSocketServer } from 'ws';
import { clientAddress } from '../http/auth';
import { newRequestStamp } from '../http/request-id';
import { rootKeyId, type Principal } from '../keys/principal';
import { authenticate, connectionSecret } from './authenticate';
import { operationContext, type GraphqlContext, type GraphqlShared, type OperationRequest } from './context';
import { clientError, formatGraphqlError, isInternalError, refusalError, unauthenticated, withRequestId } from './errors';
import { endableResults } from './endable-results';
import type { OperationAdmission } from './operation-admission';
import { RunningOperations } from './running-operations';

/** The close code of a connection whose address sent too many invalid keys (a 429 in the 4xxx range graphql-ws leaves to servers). */
export const TOO_MANY_FAILED_AUTHENTICATIONS = 4429;

/** What a graphql-ws connection knows once it is accepted. */
type ConnectionAuth = {
  secret?: string;
  principal?: Principal;
  /** Its running operations and the places they hold. */
  running?: RunningOperations;
};

export interface SubscriptionServerOptions {
  /** Who may start an operation: the overload guard and the per-key limit. */
  admission: OperationAdmission;
  /** The same validation rules (graphql-js's and the gateway's limits) and parser limit as over HTTP. */
  validationRules: readonly ValidationRule[];
  maxTokens: number;
}

/**
 * graphql-ws on `wsServer`. The key comes in the connection params; a
 * connection without a valid one is closed with 4401 before any operation.
 * Each operation (each subscription) gets its own request id, is parsed and
 * validated with the same limits as over HTTP, and holds a place in the
 * overload guard and in its key's share while it runs: until it is done,
 * the client completes it, or the socket closes, however it closes, and
 * whatever the operation's resolver is awaiting. The WebSocket server itself
 * bounds each message (`maxPayload`).
 */
export function serveSubscriptions(wsServer: WebSocketServer, schema: GraphQLSchema, shared: GraphqlShared, options: SubscriptionServerOptions): Disposable {
  const { authenticator, logger } = shared.services;
  const rules = [...specifiedRules, ...options.validationRules];
  const disposable = useServer<Record<string, unknown> | undefined, ConnectionAuth>(
    {
      schema,
      onConnect: async (ctx) => {
        const secret = connectionSecret(ctx.connectionParams);
        const principal = await authenticate(authenticator, secret, clientAddress(ctx.extra.request)).catch((err: unknown) => {
          if (!(err instanceof GatewayError) || err.code !== 'too_many_failed_authentications') throw err;
          ctx.extra.socket.close(TOO_MANY_FAILED_AUTHENTICATIONS, 'Too many failed authentications');
          return undefined;
        });
        if (principal === undefined) return false;
        if (!principal) {
          // graphql-ws would close a refused connection with 4403 Forbidden; a missing or bad key is 4401.
          ctx.extra.socket.close(CloseCode.Unauthorized, 'Unauthorized');
          return false;
        }
        ctx.extra.secret = secret;
        ctx.extra.principal = principal;
        const running = (ctx.extra.running = new RunningOperations());
        // The socket's own close (a close frame, a cut connection, a missed keep-alive): graphql-ws reports it
        // only after every operation's `return()` has settled, so the places are given back here, at once.
        ctx.extra.socket.once('close', () => running.close());
        return true;
      },
      onSubscribe: async (ctx, _id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> => {
        const request: OperationRequest = { ...newRequestStamp(), startedAt: performance.now() };
        // While shutting down, a new stream would only be cut (and recorded as abandoned) moments later.
        if (shared.isDraining()) return [refusalError(Errors.shuttingDown(), request.requestId)];
        // A key revoked or expired while its connection stays open stops working at its next operation.
        let principal: Principal | null;
        try {
          principal = await authenticate(authenticator, ctx.extra.secret, clientAddress(ctx.extra.request));
        } catch (err) {
          if (err instanceof GatewayError) return [refusalError(err, request.requestId)];
          throw err;
        }
        if (!principal) return [unauthenticated(ctx.extra.secret, request.requestId)];
        ctx.extra.principal = principal;

        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: options.maxTokens });
        } catch (err) {
          if (err instanceof GraphQLError) return [clientError(err, request.requestId)];
          throw err;
        }
        const invalid = validate(schema, document, rules);
        if (invalid.length > 0) return invalid.map((error) => clientError(error, request.requestId));
        if (!getOperationAST(document, payload.operationName)) {
          const message = payload.operationName ? `Unknown operation named "${payload.operationName}".` : 'Must provide operation name if query contains multiple operations.';
          return [clientError(new GraphQLError(message), request.requestId)];
        }

        // A temporary credential's operations share its parent key's places.
        const place = options.admission.admit(rootKeyId(principal));
        if (place instanceof GatewayError) return [refusalError(place, request.requestId)];
        const signal = ctx.extra.running!.start(payload, place);
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: { ...operationContext(shared, principal, request), signal } satisfies GraphqlContext,
        };
      },
      // A stream of results ends the moment the client completes it or goes away, whatever its source awaits.
      onOperation: (ctx, _id, payload, _args, result) => {
        if (!isAsyncIterable(result)) return undefined;
        return endableResults(result, () => ctx.extra.running?.end(payload));
      },
      onNext: (_ctx, _id, _payload, args, result) => {
        if (!result.errors) return;
        const context = args.contextValue as GraphqlContext;
        const errors = result.errors.map((error) => {
          if (isInternalError(error)) context.logger.error('GraphQL operation failed', { err: error.originalError ?? error });
          return withRequestId(formatGraphqlError(error.toJSON(), error), context.requestId);
        });
        return { ...result, errors };
      },
      // An operation ends with `complete` (done, unsubscribed, or after its stream failed) or, refused, with `error`.
      onComplete: (ctx, _id, payload) => ctx.extra.running?.end(payload),
      onError: (ctx, _id, payload) => ctx.extra.running?.end(payload),
    },
    wsServer,
  );
  wsServer.on('connection', (socket) => {
    // ws reports a client's protocol error (a message over maxPayload, say) after closing the socket with its
    // code (1009); graphql-ws would print it to stderr as an internal error of its own. It is the client's.
    socket.removeAllListeners('error');
    socket.on('error', (err: Error) => logger.debug('graphql-ws connection closed on a protocol error', { reason: err.message }));
  });
  return disposable;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<ExecutionResult> {
  return typeof (value as Partial<AsyncIterable<unknown>> | null)?.[Symbol.asyncIterator] === 'function';
}
