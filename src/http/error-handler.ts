import { GatewayError } from '../errors/gateway-error';
import { recordRefusal } from '../model-call/record-refusal';
import { toGatewayError } from '../model-call/to-gateway-error';
import type { Logger } from '../observability/logger';
import type { GatewayMetrics } from '../observability/metrics';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import { locals } from './request-locals';
import { sendError } from './send-error';

/** Express's own refusals (a path with malformed percent-encoding, say) carry a 4xx `status`. */
function fromExpress(err: unknown): GatewayError | undefined {
  const status = (err as { status?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return new GatewayError('invalid_request', `The request could not be read: ${(err as Error).message}`);
  return undefined;
}

/**
 * The last middleware: every error becomes the envelope, and a request that
 * holds an unsettled usage ticket gets its (uncharged) record before the
 * answer goes out, by the same `recordRefusal` a model call's gate refuses
 * with (model-call/model-call-gate.ts), so every door records alike. Unknown errors are logged with their stack and answered
 * with a plain 500 envelope, never a stack trace.
 */
export function errorHandler(logger: Logger, metrics?: GatewayMetrics) {
  return async (err: unknown, _req: HttpRequest, res: HttpResponse, _next: Next): Promise<void> => {
    const l = locals(res);
    const gatewayError = await recordRefusal(l.ticket, toGatewayError(err) ? err : (fromExpress(err) ?? err), logger);
    metrics?.errors.inc({ code: gatewayError.code, status: String(gatewayError.status) });
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, gatewayError);
  };
}
