import { tracedListener } from './traced-listener';
import type { RequestListener } from 'node:http';
import express, { type Express, type RequestHandler, type Router } from 'express';
import { Errors } from '../errors/errors';
import { errorHandler } from './error-handler';
import { accessLog } from './access-log';
import { directRoutes, type DirectRoute } from './direct-routes';
import { requestPath, type Middleware } from './http-types';
import { requestId } from './request-id';
import type { Logger } from '../observability/logger';
import type { GatewayMetrics } from '../observability/metrics';
import type { Tracing } from '../observability/tracing';
import type { OverloadGuard } from './overload-guard';

export interface AppParts {
  logger: Logger;
  metrics: GatewayMetrics;
  /** The gateway's tracer: a server span per request while traces are on. */
  tracing: Tracing;
  guard: OverloadGuard;
  logRequests: boolean;
  /** Routers that need no API key (health, metrics, admin with its own token). */
  open: Router[];
  /** Routers behind the API key. */
  authenticated: Router[];
  /** Model-call endpoints behind the API key, served before express (see direct-routes.ts). */
  direct: DirectRoute[];
  requireApiKey: Middleware;
  /** Mounted before the 404 handler (GraphQL, console). */
  extra?: Array<(app: Express) => void>;
}

/**
 * The HTTP request listener: the direct routes first, then the express app
 * with request id, access log, overload guard, routers, the 404 and the
 * error envelope for everything else. Both run the same middlewares.
 */
export function buildRequestListener(parts: AppParts): RequestListener {
  const onError = errorHandler(parts.logger, parts.metrics);
  const log = accessLog(parts.logger, parts.metrics, parts.logRequests);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(log);
  for (const router of parts.open) app.use(router);
  app.use(['/v1', '/api', '/graphql'], parts.guard.middleware);
  for (const mount of parts.extra ?? []) mount(app);
  app.use(['/v1', '/api/models', '/api/usage', '/api/credentials'], parts.requireApiKey as RequestHandler);
  for (const router of parts.authenticated) app.use(router);
  app.use((req, _res, next) => next(Errors.notFound(req.method, requestPath(req))));
  app.use(onError);
  return tracedListener(directRoutes(parts.direct, [requestId, log, parts.guard.middleware, parts.requireApiKey], onError, app), parts.tracing);
}
