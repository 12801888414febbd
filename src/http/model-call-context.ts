import type { ModelCallGate } from '../model-call/model-call-gate';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import { locals } from './request-locals';
import { requestSpan } from './traced-listener';

/**
 * For endpoints that call a model: opens the model call through its gate
 * (its usage ticket and abort signal) and aborts it when the client
 * disconnects before the response is complete.
 */
export function modelCallContext(endpoint: string, gate: ModelCallGate) {
  return (_req: HttpRequest, res: HttpResponse, next: Next): void => {
    const l = locals(res);
    const { context, abort } = gate.open({ requestId: l.requestId, principal: l.principal!, endpoint, createdAt: l.createdAt, startedAt: l.startedAt, span: requestSpan(res) });
    res.once('close', () => {
      if (res.writableFinished) return;
      abort.abort();
      context.ticket.noteClientGone();
    });
    l.ticket = context.ticket;
    l.context = context;
    next();
  };
}
