import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { Express, RequestHandler } from 'express';
import { WebSocketServer } from 'ws';
import { Errors } from '../errors/errors';
import type { Middleware } from '../http/http-types';
import type { OverloadGuard } from '../http/overload-guard';
import { locals } from '../http/request-locals';
import { operationContext, type GraphqlContext, type GraphqlServices, type GraphqlShared } from './context';
import { errorReportingPlugin } from './error-reporting-plugin';
import { formatGraphqlError, unauthenticated } from './errors';
import { apolloHandler, graphqlRefusals } from './http-handler';
import { OpenStreams } from './open-streams';
import { OperationAdmission } from './operation-admission';
import { QUERY_LIMITS, queryLimitRules, type QueryLimits } from './query-limits';
import type { TaskUpdateBus } from './task-update-bus';
import { buildGatewaySubgraphSchema } from './subgraph-schema';
import { serveSubscriptions } from './subscription-server';
import { MAX_PAGE_SIZE } from './types/page-args';

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
 * Apollo and the WebSocket server come up in `start()`, which the gateway
 * awaits before it listens.
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
  let running: RunningGraphql | undefined;
  // Nothing listens before start(), so a request that finds GraphQL not running came after stop().
  const serve: RequestHandler = (req, res, next) => (running ? running.handler(req, res, next) : next(Errors.shuttingDown()));
  app.all(GRAPHQL_PATH, options.requireApiKey as RequestHandler, jsonBody, serve, graphqlRefusals);
  return {
    async start() {
      running = await startGraphql(httpServer, shared, options);
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

async function startGraphql(httpServer: Server, shared: GraphqlShared, options: GraphqlOptions): Promise<RunningGraphql> {
  // A federation subgraph (subgraph-schema.ts): the public schema plus `_service` and `_entities`.
  const schema = await buildGatewaySubgraphSchema();
  const limits = options.queryLimits ?? QUERY_LIMITS;
  const introspection = options.introspection ?? true;
  // One rule for HTTP and graphql-ws alike: with introspection off, `__schema` and `__type` fail validation on both.
  const validationRules = [...queryLimitRules(limits, MAX_PAGE_SIZE), ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const subscriptions = serveSubscriptions(
    new WebSocketServer({ server: httpServer, path: GRAPHQL_PATH, maxPayload: options.maxMessageBytes }),
    schema,
    shared,
    { admission: new OperationAdmission(options.guard, options.maxSubscriptionsPerKey), validationRules, maxTokens: limits.maxTokens },
  );
  const apollo = new ApolloServer<GraphqlContext>({
    schema,
    // Parsed and validated before anything runs; graphql-js's own rules come first.
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules,
    // Every operation needs an API key, so the schema is no secret from a caller who may run it; an operator may still turn it off.
    introspection,
    includeStacktraceInErrorResponses: false,
    // The gateway's own SIGTERM handler drains requests and flushes usage records first; Apollo's would exit mid-way.
    stopOnTerminationSignals: false,
    formatError: formatGraphqlError,
    // CSRF needs credentials a browser attaches by itself (cookies); a bearer key is never one of them.
    csrfPrevention: false,
    // The landing page loads Apollo's sandbox from a CDN; the gateway's console is the UI. Apollo would add
    // inline traces (resolver timings) to a subgraph's answers whenever a router asks; the gateway gives none.
    plugins: [errorReportingPlugin(), ApolloServerPluginLandingPageDisabled(), ApolloServerPluginInlineTraceDisabled()],
  });
  await apollo.start();
  const handler = apolloHandler(apollo, async (res) => {
    const request = locals(res);
    // The route's API-key middleware has admitted the request; a request without a principal never gets here.
    if (!request.principal) throw unauthenticated(undefined, request.requestId);
    return operationContext(shared, request.principal, request);
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
