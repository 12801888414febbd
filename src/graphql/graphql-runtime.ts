import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { RequestHandler } from 'express';
import { WebSocketServer } from 'ws';
import { locals } from '../http/request-locals';
import { operationContext, type GraphqlContext, type GraphqlShared } from './context';
import { errorReportingPlugin } from './error-reporting-plugin';
import { formatGraphqlError, unauthenticated } from './errors';
import type { GraphqlOptions } from './graphql-server';
import { apolloHandler } from './http-handler';
import { OperationAdmission } from './operation-admission';
import { QUERY_LIMITS, queryLimitRules } from './query-limits';
import { buildGatewaySubgraphSchema } from './subgraph-schema';
import { serveSubscriptions } from './subscription-server';
import { MAX_PAGE_SIZE } from './types/page-args';

/** GraphQL at /graphql once started: the HTTP handler, the WebSocket upgrade for graphql-ws, and the stop. */
export interface RunningGraphql {
  handler: RequestHandler;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  stop(): Promise<void>;
}

/**
 * Builds the schema and starts Apollo and the graphql-ws server for
 * /graphql (graphql-server.ts mounts the route and calls this on the first
 * request or WebSocket upgrade).
 */
export async function startGraphql(shared: GraphqlShared, options: GraphqlOptions): Promise<RunningGraphql> {
  // A federation subgraph (subgraph-schema.ts): the public schema plus `_service` and `_entities`.
  const schema = await buildGatewaySubgraphSchema();
  const limits = options.queryLimits ?? QUERY_LIMITS;
  const introspection = options.introspection ?? true;
  // One rule for HTTP and graphql-ws alike: with introspection off, `__schema` and `__type` fail validation on both.
  const validationRules = [...queryLimitRules(limits, MAX_PAGE_SIZE), ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const wsServer = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes });
  const subscriptions = serveSubscriptions(
    wsServer,
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
    upgrade(req, socket, head) {
      wsServer.handleUpgrade(req, socket, head, (ws) => wsServer.emit('connection', ws, req));
    },
    async stop() {
      // No new connections; open ones are told the server is going away.
      await subscriptions.dispose();
      // Before the gateway flushes usage records and closes the database: every open stream settles its record.
      await shared.openStreams.endAll();
      await apollo.stop();
    },
  };
}
