import type { UsageRecorder } from '../billing/usage-recorder';
import { UsageTicket } from '../billing/usage-ticket';
import type { Principal } from '../keys/principal';
import type { Logger } from '../observability/logger';
import type { RequestContext } from './request-context';

export interface ModelCallOpening {
  requestId: string;
  principal: Principal;
  /** The usage record's endpoint label, e.g. `/v1/chat/completions`. */
  endpoint: string;
  createdAt: Date;
  /** `performance.now()` at arrival, for durations. */
  startedAt: number;
}

/**
 * The start of one model call, whichever door it came through: its usage
 * ticket (one record, whatever happens next), the abort that reaches the
 * upstream when the caller leaves, and a logger that names the request.
 */
export function openModelCall(recorder: UsageRecorder, logger: Logger, opening: ModelCallOpening): { context: RequestContext; abort: AbortController } {
  const abort = new AbortController();
  const ticket = new UsageTicket(recorder, opening.requestId, opening.principal, opening.endpoint, opening.createdAt, opening.startedAt);
  const context: RequestContext = {
    requestId: opening.requestId,
    principal: opening.principal,
    signal: abort.signal,
    ticket,
    logger: logger.enabled('warn') ? logger.child({ request_id: opening.requestId }) : logger,
  };
  return { context, abort };
}
