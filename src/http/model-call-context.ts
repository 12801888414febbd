import type { UsageRecorder } from '../billing/usage-recorder';
import { UsageTicket } from '../billing/usage-ticket';
import type { Logger } from '../observability/logger';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import { locals } from './request-locals';

/**
 * For endpoints that call a model: the request's usage ticket (one record,
 * whatever happens next) and an abort signal that fires when the client
 * disconnects before the response is complete.
 */
export function modelCallContext(endpoint: string, recorder: UsageRecorder, logger: Logger) {
  return (_req: HttpRequest, res: HttpResponse, next: Next): void => {
    const l = locals(res);
    const principal = l.principal!;
    const ticket = new UsageTicket(recorder, l.requestId, principal, endpoint, l.createdAt, l.startedAt);
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    l.ticket = ticket;
    l.context = {
      requestId: l.requestId,
      principal,
      signal: controller.signal,
      ticket,
      logger: logger.enabled('warn') ? logger.child({ request_id: l.requestId }) : logger,
    };
    next();
  };
}
