import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { RequestHandler } from 'express';
import { buildSchema } from 'type-graphql';
import { locals } from '../../http/request-locals';
import type { Logger } from '../../observability/logger';
import { errorReportingPlugin } from '../error-reporting-plugin';
import { formatGraphqlError } from '../errors';
import { apolloHandler } from '../http-handler';
import { QUERY_LIMITS, queryLimitRules } from '../query-limits';
import { MAX_PAGE_SIZE } from '../types/page-args';
import { AccountsAdminResolver } from './accounts-admin-resolver';
import type { AdminGraphqlContext, AdminServices } from './admin-context';
import { McpServersAdminResolver } from './mcp-servers-admin-resolver';
import { SpendAdminResolver } from './spend-admin-resolver';

/** The admin schema: accounts, keys, wallets, budgets, the ledger and reconcile, and the catalog's MCP servers, as queries and mutations. */
export function buildAdminSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers: [AccountsAdminResolver, SpendAdminResolver, McpServersAdminResolver], validate: false });
}

/** The admin GraphQL once started: its HTTP handler and its stop. */
export interface RunningAdminGraphql {
  handler: RequestHandler;
  stop(): Promise<void>;
}

/** Builds the admin schema and starts its Apollo server (admin-graphql.ts calls this on the first request). */
export async function startAdminGraphql(services: AdminServices, logger: Logger): Promise<RunningAdminGraphql> {
  const apollo = new ApolloServer<AdminGraphqlContext>({
    schema: await buildAdminSchema(),
    parseOptions: { maxTokens: QUERY_LIMITS.maxTokens },
    validationRules: queryLimitRules(QUERY_LIMITS, MAX_PAGE_SIZE),
    introspection: true,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
    formatError: formatGraphqlError,
    csrfPrevention: false,
    plugins: [errorReportingPlugin<AdminGraphqlContext>(), ApolloServerPluginLandingPageDisabled()],
  });
  await apollo.start();
  const handler = apolloHandler(apollo, async (res) => {
    const { requestId } = locals(res);
    return { requestId, logger: logger.child({ request_id: requestId }), admin: services };
  });
  return { handler, stop: () => apollo.stop() };
}
