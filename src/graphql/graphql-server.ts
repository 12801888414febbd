import type { Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { Express, RequestHandler } from 'express';
import { GraphQLError } from 'graphql';
import { WebSocketServer } from 'ws';
import { bearerToken } from '../http/auth';
import { Errors } from '../errors/errors';
import { locals } from '../http/request-locals';
import { authenticate } from './authenticate';
import { operationContext, type GraphqlContext, type GraphqlServices, type GraphqlShared } from './context';
import { errorReportingPlugin } from './error-reporting-plugin';
import { formatGraphqlError, unauthenticated } from './errors';
import { OpenStreams } from './open-streams';
import type { TaskUpdateBus } from './task-update-bus';
import { buildGatewaySchema } from './schema';
import { serveSubscriptions } from './subscription-server';

export const GRAPHQL_PATH = '/graphql';

export interface GraphqlServer {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface GraphqlOptions {
  /** Task updates by key: through Redis across instances, or in-process. */
  taskUpdates: TaskUpdateBus;
  /** Unix seconds the catalog was loaded; pass REST's value so both list the same `created`. */
  catalogLoadedAt?: number;
  /** The gateway's shutdown state, shared with the REST overload guard. */
  isDraining?: () => boolean;
}

/**
 * GraphQL at /graphql: queries over HTTP (POST and GET) through Apollo, and
 * subscriptions over graphql-ws on the same path and HTTP server. The route
 * is mounted now, in its place among the express middlewares; the schema,
 * Apollo and the WebSocket server come up in `start()`, which the gateway
 * awaits before it listens.
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
    catalogLoadedAt: options.catalogLoadedAt ?? Math.floor(Date.now() / 1000),
    openStreams: new OpenStreams(),
    isDraining: options.isDraining ?? (() => false),
  };
  let running: RunningGraphql | undefined;
  // Nothing listens before start(), so a request that finds GraphQL not running came after stop().
  app.all(GRAPHQL_PATH, jsonBody, (req, res, next) => (running ? running.handler(req, res, next) : next(Errors.shuttingDown())));
  return {
    async start() {
      running = await startGraphql(httpServer, shared);
    },
    async stop() {
      const stopping = running;
      running = undefined;
      await stopping?.stop();
    },
  };
}

interface RunningGraphql {
  handler: RequestHandler;
  stop(): Promise<void>;
}

async function startGraphql(httpServer: Server, shared: GraphqlShared): Promise<RunningGraphql> {
  const schema = await buildGatewaySchema();
  const subscriptions = serveSubscriptions(new WebSocketServer({ server: httpServer, path: GRAPHQL_PATH }), schema, shared);
  const apollo = new ApolloServer<GraphqlContext>({
    schema,
    // Every operation needs an API key, so the schema is no secret from a caller who may run it.
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // The gateway's own SIGTERM handler drains requests and flushes usage records first; Apollo's would exit mid-way.
    stopOnTerminationSignals: false,
    formatError: formatGraphqlError,
    // CSRF needs credentials a browser attaches by itself (cookies); a bearer key is never one of them.
    csrfPrevention: false,
    // The landing page loads Apollo's sandbox from a CDN; the gateway's console is the UI.
    plugins: [errorReportingPlugin(), ApolloServerPluginLandingPageDisabled()],
  });
  await apollo.start();
  const handler = expressMiddleware(apollo, {
    context: async ({ req, res }) => {
      const request = locals(res);
      const secret = bearerToken(req.headers.authorization);
      const principal = await authenticate(shared.services.keys, secret);
      if (!principal) {
        const refusal = unauthenticated(secret, request.requestId);
        // Apollo answers a failed context with the status in `extensions.http`, and leaves that out of the body.
        throw new GraphQLError(refusal.message, { extensions: { ...refusal.extensions, http: { status: 401 } } });
      }
      return operationContext(shared, principal, request);
    },
  });
  return {
    handler,
    async stop() {
      // No new connections; open ones are told the server is going away.
      await subscriptions.dispose();
      // Before the gateway flushes usage records and closes the database: every open stream settles its record.
      await shared.openStreams.endAll();
      await apollo.stop();
    },
  };
}
