import type { ModelCallGate } from '../model-call/model-call-gate';
import type { LimitedEndpoint } from '../limits/token-estimate';
import type { HttpRequest, HttpResponse, Middleware, Next } from './http-types';
import { isMultipart } from './multipart';
import { locals } from './request-locals';

/** What a request counts as, where one route serves several kinds (Gemini's methods), and the model its path names (its body names none). */
export interface LimitedCall {
  endpoint: LimitedEndpoint;
  model?: string;
}

/**
 * REST's adapter onto the model call's admission (model-call/model-call-gate.ts).
 * It runs after the API key and the JSON body are read (the body names the
 * model, whose limits apply) and before the request is validated or an
 * Idempotency-Key is claimed: a malformed request counts, as at OpenAI, and
 * a refused one claims no key. The `x-ratelimit-*` headers go on every
 * answer while a limit applies; a refusal is thrown as `rate_limit_exceeded`
 * (429 with Retry-After) for the error handler to record, uncharged.
 */
export function rateLimited(gate: ModelCallGate, endpoint: LimitedEndpoint | ((req: HttpRequest) => LimitedCall)): Middleware {
  return async (req: HttpRequest, res: HttpResponse, next: Next) => {
    // A multipart video submission is read by its handler: only the key's and the account's limits apply to it.
    const body = isMultipart(req) ? undefined : req.body;
    const call = typeof endpoint === 'string' ? { endpoint } : endpoint(req);
    const model = call.model ?? (body as { model?: unknown } | undefined)?.model;
    const admission = await gate.admit(locals(res).context!, { endpoint: call.endpoint, model: typeof model === 'string' ? model : undefined, body });
    for (const [name, value] of Object.entries(admission.headers)) res.setHeader(name, value);
    if (admission.refusal) throw admission.refusal;
    next();
  };
}
