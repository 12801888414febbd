import type { UsageRecorder } from '../billing/usage-recorder';
import { CallSpend } from '../billing/call-spend';
import { UsageTicket } from '../billing/usage-ticket';
import type { Principal } from '../keys/principal';
import type { Span } from '@opentelemetry/api';
import type { Logger } from '../observability/logger';
import { traceFields } from '../observability/tracing';
import type { RequestContext } from './request-context';

export interface ModelCallOpening {
  requestId: string;
  principal: Principal;
  /** The usage record's endpoint label, e.g. `/v1/chat/completions`. */
  endpoint: string;
  createdAt: Date;
  /** `performance.now()` at arrival, for durations. */
  startedAt: number;
  /** The request's span, while traces are on. */
  span?: Span;
}

/**
 * The start of one model call, whichever door it came through: its usage
 * ticket (one record, whatever happens next), the abort that reaches the
 * upstream when the caller leaves, and a logger that names the request
 * (and its trace, while traces are on).
 */
export function openModelCall(recorder: UsageRecorder, logger: Logger, opening: ModelCallOpening): { context: RequestContext; abort: AbortController } {
  const abort = new AbortController();
  const spend = new CallSpend(recorder.spendGuard, opening.principal, opening.requestId);
  const ticket = new UsageTicket(recorder, opening.requestId, opening.principal, opening.endpoint, opening.createdAt, opening.startedAt, opening.span, spend);
  const context: RequestContext = {
    requestId: opening.requestId,
    principal: opening.principal,
    signal: abort.signal,
    ticket,
    spend,
    logger: logger.enabled('warn') ? logger.child({ request_id: opening.requestId, ...traceFields(opening.span) }) : logger,
    span: opening.span,
  };
  return { context, abort };
}
