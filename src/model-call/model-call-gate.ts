import type { UsageRecorder } from '../billing/usage-recorder';
import type { GatewayError } from '../errors/gateway-error';
import type { RateLimits } from '../limits/rate-limits';
import { settledTokens, type LimitedEndpoint } from '../limits/token-estimate';
import type { Logger } from '../observability/logger';
import { openModelCall, type ModelCallOpening } from './open-model-call';
import { recordRefusal } from './record-refusal';
import type { RequestContext } from './request-context';

export interface ModelCallGateDeps {
  recorder: UsageRecorder;
  /** Where refusals that are bugs are logged with their stack. */
  logger: Logger;
  /** Requests and tokens per minute; without it nothing is counted. */
  rateLimits?: RateLimits;
}

/** What the limits need to know about a call: the limited endpoint it counts as, the model it names and its body (the token estimate reads it). */
export interface CallToAdmit {
  endpoint: LimitedEndpoint;
  /** The model the request names, if any (its own limits apply). */
  model: string | undefined;
  /** The request in its OpenAI wire shape; `undefined` counts no tokens (a multipart video submission). */
  body: unknown;
}

/** A call's pass through the limits. */
export interface CallAdmission {
  /** `x-ratelimit-*` while a limit applies; on a refusal also `retry-after` and `retry-after-ms`. A door with headers sends them with its answer, refused or not. */
  headers: Record<string, string>;
  /** Set when the call may not run: end it with this error (through `refuse`, which records it). */
  refusal?: GatewayError;
}

/**
 * The one way into a model call, whichever door it comes through (REST's
 * middlewares, the chatCompletion subscription, and doors to come such as
 * other client dialects or a tool endpoint): open the call, admit it under
 * every limit that applies to a model call, and end a call that fails before
 * its service settles it. A door only translates: it passes plain values in
 * and sends what comes back in its own shape.
 *
 * - `open`: the usage ticket (one record, whatever happens next), the abort
 *   that reaches the upstream, the request's logger.
 * - `admit`: requests and tokens per minute, per key, account and model
 *   (limits/rate-limits.ts). An admitted call's token estimate is corrected
 *   when its ticket settles; a refused one gives back what it counted.
 * - `refuse`: the uncharged usage record with the status and code the client
 *   is told (an unknown error is `internal_error`, logged with its stack).
 *
 * Concurrency is held by the transport, not here: every HTTP request holds a
 * place in the overload guard and every graphql-ws operation one in the
 * operation admission, model call or not, before any model call opens.
 */
export class ModelCallGate {
  constructor(private readonly deps: ModelCallGateDeps) {}

  open(opening: ModelCallOpening): { context: RequestContext; abort: AbortController } {
    return openModelCall(this.deps.recorder, this.deps.logger, opening);
  }

  async admit(call: Pick<RequestContext, 'principal' | 'ticket'>, request: CallToAdmit): Promise<CallAdmission> {
    const admission = await this.deps.rateLimits?.admit({ principal: call.principal, endpoint: request.endpoint, model: request.model, body: request.body });
    if (!admission) return { headers: {} };
    if (admission.refusal) return { headers: admission.headers, refusal: admission.refusal };
    call.ticket.onSettled((s) => admission.settle(settledTokens(s.usage)));
    return { headers: admission.headers };
  }

  refuse(call: Pick<RequestContext, 'ticket'> | undefined, err: unknown): Promise<GatewayError> {
    return recordRefusal(call?.ticket, err, this.deps.logger);
  }
}
