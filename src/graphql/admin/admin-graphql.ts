import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { Express, RequestHandler } from 'express';
import { buildSchema } from 'type-graphql';
import { Errors } from '../../errors/errors';
import { requireAdminToken } from '../../http/auth';
import { locals } from '../../http/request-locals';
import type { Logger } from '../../observability/logger';
import { errorReportingPlugin } from '../error-reporting-plugin';
import { formatGraphqlError } from '../errors';
import type { GraphqlServer } from '../graphql-server';
import { apolloHandler, graphqlRefusals } from '../http-handler';
import { QUERY_LIMITS, queryLimitRules } from '../query-limits';
import { MAX_PAGE_SIZE } from '../types/page-args';
import { AccountsAdminResolver } from './accounts-admin-resolver';
import type { AdminGraphqlContext, AdminServices } from './admin-context';
import { McpServersAdminResolver } from './mcp-servers-admin-resolver';
import { SpendAdminResolver } from './spend-admin-resolver';

export const ADMIN_GRAPHQL_PATH = '/api/admin/graphql';

/** The admin schema: accounts, keys, wallets, budgets, the ledger and reconcile, and the catalog's MCP servers, as queries and mutations. */
export function buildAdminSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers: [AccountsAdminResolver, SpendAdminResolver, McpServersAdminResolver], validate: false });
}

/**
 * The admin API as GraphQL at /api/admin/graphql, over HTTP, behind the
 * admin token (checked before the body is read), on the same services as
 * the admin REST routes. It is a schema of its own: a key holder of
 * /graphql never sees its types, and the admin token never runs a key's
 * operations.
 */
export function mountAdminGraphql(app: Express, services: AdminServices, logger: Logger, adminToken: string | undefined, jsonBody: RequestHandler): GraphqlServer {
  let handler: RequestHandler | undefined;
  let apollo: ApolloServer<AdminGraphqlContext> | undefined;
  const serve: RequestHandler = (req, res, next) => (handler ? handler(req, res, next) : next(Errors.shuttingDown()));
  app.all(ADMIN_GRAPHQL_PATH, requireAdminToken(adminToken) as RequestHandler, jsonBody, serve, graphqlRefusals);
  return {
    async start() {
      apollo = new ApolloServer<AdminGraphqlContext>({
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
      handler = apolloHandler(apollo, async (res) => {
        const { requestId } = locals(res);
        return { requestId, logger: logger.child({ request_id: requestId }), admin: services };
      });
    },
    async stop() {
      handler = undefined;
      await apollo?.stop();
    },
  };
}
