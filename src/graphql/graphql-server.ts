import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type { Middleware } from '../http/http-types';
import type { OverloadGuard } from '../http/overload-guard';
import type { GraphqlServices, GraphqlShared } from './context';
import { OpenStreams } from './open-streams';
import type { QueryLimits } from './query-limits';
import { servedOnFirstUse, StartOnFirstUse } from './start-on-first-use';
import type { TaskUpdateBus } from './task-update-bus';

export const GRAPHQL_PATH = '/graphql';

export interface GraphqlServer {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface GraphqlOptions {
  /** Task updates by key: through Redis across instances, or in-process. */
  taskUpdates: TaskUpdateBus;
  /** The gateway's shutdown state, shared with the REST overload guard. */
  isDraining?: () => boolean;
  /** REST's API-key middleware: it runs before the body is read, so no body is read for a caller without a valid key. */
  requireApiKey: Middleware;
  /** REST's overload guard: every graphql-ws operation holds a place in it while it runs. */
  guard: OverloadGuard;
  /** The largest graphql-ws message, in bytes (REST's body limit). */
  maxMessageBytes: number;
  /** The graphql-ws operations one key may have open on this instance (0: no limit). */
  maxSubscriptionsPerKey: number;
  /** Depth, alias, token and cost limits, over HTTP and graphql-ws alike. */
  queryLimits?: QueryLimits;
  /** Whether `__schema`/`__type` queries are answered (GATEWAY_GRAPHQL_INTROSPECTION; on by default: every operation needs a key anyway). */
  introspection?: boolean;
}

/**
 * GraphQL at /graphql: queries over HTTP (POST and GET) through Apollo, and
 * subscriptions over graphql-ws on the same path and HTTP server. The route
 * is mounted now, in its place among the express middlewares; the schema,
 * Apollo and the WebSocket server (graphql-runtime.ts) are loaded and
 * started by the first request or WebSocket upgrade to /graphql, so an
 * instance that serves only the REST API never holds them.
 *
 * Over HTTP the API key is checked first, then the body is read (`jsonBody`,
 * with the GraphQL body limit), then Apollo parses and validates the
 * document within the query limits before anything runs.
 */
export function mountGraphql(
  app: Express,
  httpServer: Server,
  services: GraphqlServices,
  jsonBody: RequestHandler,
  options: GraphqlOptions,
): GraphqlServer {
  const shared: GraphqlShared = {
    services,
    taskUpdates: options.taskUpdates,
    openStreams: new OpenStreams(),
    isDraining: options.isDraining ?? (() => false),
  };
  const runtime = new StartOnFirstUse(() => (require('./graphql-runtime') as typeof import('./graphql-runtime')).startGraphql(shared, options));
  // Nothing is served before start(), so a request that finds GraphQL not open came after stop().
  app.all(GRAPHQL_PATH, options.requireApiKey as RequestHandler, jsonBody, servedOnFirstUse(runtime), graphqlRefusals);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((req.url ?? '').split('?')[0] !== GRAPHQL_PATH) return refuseUpgrade(socket, 400, 'Bad Request');
    const running = runtime.get();
    if (!running) return refuseUpgrade(socket, 503, 'Service Unavailable');
    running.then((r) => r.upgrade(req, socket, head), () => refuseUpgrade(socket, 500, 'Internal Server Error'));
  };
  return {
    async start() {
      runtime.open();
      httpServer.on('upgrade', onUpgrade);
    },
    async stop() {
      httpServer.off('upgrade', onUpgrade);
      await runtime.stop();
    },
  };
}

/** Refusals of GraphQL requests in GraphQL's error shape (http-handler.ts, loaded with the first refusal). */
export const graphqlRefusals: ErrorRequestHandler = (err, req, res, next) =>
  (require('./http-handler') as typeof import('./http-handler')).graphqlRefusals(err, req, res, next);

/** Answers a WebSocket upgrade that is not taken, as the ws library does, and closes the socket. */
function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}
