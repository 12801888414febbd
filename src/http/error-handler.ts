import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../observability/logger';
import { Errors, GatewayError } from './errors';
import { toGatewayError } from './map-upstream-error';
import { locals } from './request-locals';
import { sendError } from './send-error';

/** Body-parser failures, recognised by the `type` it sets on its errors. */
function fromBodyParser(err: unknown, limit: number): GatewayError | undefined {
  const type = (err as { type?: string })?.type;
  if (type === 'entity.too.large') return Errors.bodyTooLarge(limit);
  if (type === 'entity.parse.failed') return Errors.malformedJson((err as Error).message);
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return Errors.unsupportedMediaType('UTF-8 JSON');
  if (type === 'request.aborted') return new GatewayError(400, 'request_aborted', 'The client closed the connection while sending the body.');
  // Express's own refusals (a path with malformed percent-encoding, say) carry a 4xx `status`.
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
export function errorHandler(logger: Logger, bodyLimit: number) {
  return async (err: unknown, _req: Request, res: Response, _next: NextFunction): Promise<void> => {
    const l = locals(res);
    let gatewayError = toGatewayError(err) ?? fromBodyParser(err, bodyLimit);
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
