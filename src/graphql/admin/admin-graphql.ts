import type { Express, RequestHandler } from 'express';
import { requireAdminToken } from '../../http/auth';
import type { Logger } from '../../observability/logger';
import { graphqlRefusals, type GraphqlServer } from '../graphql-server';
import { servedOnFirstUse, StartOnFirstUse } from '../start-on-first-use';
import type { AdminServices } from './admin-context';

export const ADMIN_GRAPHQL_PATH = '/api/admin/graphql';

/**
 * The admin API as GraphQL at /api/admin/graphql, over HTTP, behind the
 * admin token (checked before the body is read), on the same services as
 * the admin REST routes. It is a schema of its own: a key holder of
 * /graphql never sees its types, and the admin token never runs a key's
 * operations. Its schema and Apollo server (admin-graphql-runtime.ts) are
 * loaded and started by its first request.
 */
export function mountAdminGraphql(app: Express, services: AdminServices, logger: Logger, adminToken: string | undefined, jsonBody: RequestHandler): GraphqlServer {
  const runtime = new StartOnFirstUse(() => (require('./admin-graphql-runtime') as typeof import('./admin-graphql-runtime')).startAdminGraphql(services, logger));
  app.all(ADMIN_GRAPHQL_PATH, requireAdminToken(adminToken) as RequestHandler, jsonBody, servedOnFirstUse(runtime), graphqlRefusals);
  return {
    async start() {
      runtime.open();
    },
    stop: () => runtime.stop(),
  };
}
