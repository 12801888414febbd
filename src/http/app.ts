import express, { type Express, type RequestHandler, type Router } from 'express';
import { Errors } from './errors';
import { errorHandler } from './error-handler';
import { accessLog } from './access-log';
import { requestId } from './request-id';
import type { Logger } from '../observability/logger';
import type { GatewayMetrics } from '../observability/metrics';
import type { OverloadGuard } from './overload-guard';

export interface AppParts {
  logger: Logger;
  metrics: GatewayMetrics;
  guard: OverloadGuard;
  bodyLimit: number;
  logRequests: boolean;
  /** Routers that need no API key (health, metrics, admin with its own token). */
  open: Router[];
  /** Routers behind the API key. */
  authenticated: Router[];
  requireApiKey: RequestHandler;
  /** Mounted before the 404 handler (GraphQL, console). */
  extra?: Array<(app: Express) => void>;
}

/**
 * Express plumbing only: request id, access log, overload guard, routers,
 * then the 404 and the error envelope for everything else.
 */
export function buildApp(parts: AppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(accessLog(parts.logger, parts.metrics, parts.logRequests));
  for (const router of parts.open) app.use(router);
  app.use(['/v1', '/api', '/graphql'], parts.guard.middleware);
  for (const mount of parts.extra ?? []) mount(app);
  app.use(['/v1', '/api/models', '/api/usage'], parts.requireApiKey);
  for (const router of parts.authenticated) app.use(router);
  app.use((req, _res, next) => next(Errors.notFound(req.method, req.path)));
  app.use(errorHandler(parts.logger, parts.bodyLimit));
  return app;
}

/** A JSON body parser that reads any content type (curl's default form type included) as JSON. */
export function jsonBodyParser(limit: number): RequestHandler {
  return express.json({ limit, type: () => true, strict: false });
}
