import type { RateLimits } from '../limits/rate-limits';
import { settledTokens, type LimitedEndpoint } from '../limits/token-estimate';
import type { HttpRequest, HttpResponse, Middleware, Next } from './http-types';
import { isMultipart } from './multipart';
import { locals } from './request-locals';

/**
 * Holds a model-call request to the rate limits (limits/rate-limits.ts).
 * It runs after the API key and the JSON body are read (the body names the
 * model, whose limits apply) and before the request is validated or an
 * Idempotency-Key is claimed: a malformed request counts, as at OpenAI, and
 * a refused one claims no key. The `x-ratelimit-*` headers go on every
 * answer while a limit applies; a refusal is thrown as `rate_limit_exceeded`
 * (429 with Retry-After) and recorded like any refusal, uncharged. The token
 * estimate is corrected when the usage ticket settles, before its write.
 */
export function rateLimited(limits: RateLimits | undefined, endpoint: LimitedEndpoint): Middleware {
  return async (req: HttpRequest, res: HttpResponse, next: Next) => {
    if (!limits) return next();
    const l = locals(res);
    // A multipart video submission is read by its handler: only the key's and the account's limits apply to it.
    const body = isMultipart(req) ? undefined : req.body;
    const model = (body as { model?: unknown } | undefined)?.model;
    const admission = await limits.admit({ principal: l.principal!, endpoint, model: typeof model === 'string' ? model : undefined, body });
    if (!admission) return next();
    for (const [name, value] of Object.entries(admission.headers)) res.setHeader(name, value);
    if (admission.refusal) throw admission.refusal;
    l.ticket?.onSettled((s) => admission.settle(settledTokens(s.usage)));
    next();
  };
}
