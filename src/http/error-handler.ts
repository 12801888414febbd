import type { Logger } from '../observability/logger';
import { Errors, GatewayError } from './errors';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import { toGatewayError } from './map-upstream-error';
import { locals } from './request-locals';
import { sendError } from './send-error';

/** Express's own refusals (a path with malformed percent-encoding, say) carry a 4xx `status`. */
function fromExpress(err: unknown): GatewayError | undefined {
  const status = (err as { status?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return new GatewayError(400, 'invalid_request', `The request could not be read: ${(err as Error).message}`);
  return undefined;
}

/**
 * The last middleware: every error becomes the envelope, and a request that
 * holds an unsettled usage ticket gets its (uncharged) record before the
 * answer goes out. Unknown errors are logged with their stack and answered
 * with a plain 500 envelope, never a stack trace.
 */
export function errorHandler(logger: Logger) {
  return async (err: unknown, _req: HttpRequest, res: HttpResponse, _next: Next): Promise<void> => {
    const l = locals(res);
    let gatewayError = toGatewayError(err) ?? fromExpress(err);
    if (!gatewayError) {
      logger.error('unhandled error', { request_id: l.requestId, err });
      gatewayError = Errors.internal();
    }
    if (l.ticket && !l.ticket.isSettled) {
      await l.ticket.fail(gatewayError.status, gatewayError.code).catch((e) => logger.error('usage record failed', { request_id: l.requestId, err: e }));
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, gatewayError);
  };
}
