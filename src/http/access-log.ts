import { logIdFor } from '../billing/usage-record';
import type { Logger } from '../observability/logger';
import type { GatewayMetrics } from '../observability/metrics';
import { requestPath, type HttpRequest, type HttpResponse, type Next } from './http-types';
import { locals } from './request-locals';
import { requestSpan } from './traced-listener';
import { traceFields } from '../observability/tracing';

/** The matched route of an express request (`req.baseUrl` + `req.route.path`). */
interface ExpressRouteInfo {
  baseUrl?: string;
  route?: { path?: string };
}

/** One structured log line and the request metrics per request, when its response ends or the client leaves. */
export function accessLog(logger: Logger, metrics: GatewayMetrics, logRequests: boolean) {
  return (req: HttpRequest, res: HttpResponse, next: Next): void => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const l = locals(res);
      const seconds = (performance.now() - l.startedAt) / 1000;
      const status = res.writableFinished ? res.statusCode : 499;
      const route = l.route ?? routeOf(req as HttpRequest & ExpressRouteInfo);
      // The request span is named by it when it ends.
      l.route = route;
      metrics.httpRequests.inc({ method: req.method ?? '', route, status: String(status) });
      metrics.httpDuration.observe({ route }, seconds);
      if (logRequests) {
        logger.info('request', {
          request_id: l.requestId,
          log_id: logIdFor(l.requestId),
          method: req.method,
          path: requestPath(req),
          status,
          duration_ms: Math.round(seconds * 1e4) / 10,
          key_id: l.principal?.keyId,
          ...traceFields(requestSpan(res)),
        });
      }
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };
}

function routeOf(req: ExpressRouteInfo): string {
  return req.route?.path ? `${req.baseUrl ?? ''}${req.route.path}` : 'unmatched';
}
