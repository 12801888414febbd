import type { ModelCallGate } from '../model-call/model-call-gate';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import { locals } from './request-locals';
import { requestSpan } from './traced-listener';

/**
 * For endpoints that call a model: opens the model call through its gate
 * (its usage ticket and abort signal) and aborts it when the client
 * disconnects before the response is complete. `endpoint` is the usage
 * record's, read from the request where one route serves several.
 */
export function modelCallContext(endpoint: string | ((req: HttpRequest) => string), gate: ModelCallGate) {
  return (req: HttpRequest, res: HttpResponse, next: Next): void => {
    const l = locals(res);
    const { context, abort } = gate.open({ requestId: l.requestId, principal: l.principal!, endpoint: typeof endpoint === 'string' ? endpoint : endpoint(req), createdAt: l.createdAt, startedAt: l.startedAt, span: requestSpan(res) });
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
