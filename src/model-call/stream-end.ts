import type { MeasuredUsage } from '../billing/usage-record';
import type { GatewayMetrics } from '../observability/metrics';
import type { RequestContext } from './request-context';
import { CLIENT_CLOSED_REQUEST, countUpstreamError, settlementOf, type RouteAttempt } from './route-attempts';
import { toGatewayError } from './to-gateway-error';

/** How a committed stream ended: whole, or with a failure (the client gone counts as neither). */
export interface StreamEnd {
  finished: boolean;
  failure: unknown;
  usage: MeasuredUsage;
  ttftMs: number | null;
}

/**
 * Settles the usage record of a stream that had begun, for every capability
 * that streams: a whole stream and one the client abandoned are charged
 * (the tokens were produced for the client), a stream the upstream broke is
 * not, and its failure is counted against the route.
 */
export async function settleStream(ctx: RequestContext, metrics: GatewayMetrics, attempt: RouteAttempt, end: StreamEnd): Promise<void> {
  const clientGone = ctx.signal.aborted;
  const error = end.failure && !clientGone ? toGatewayError(end.failure) : undefined;
  if (end.failure && !clientGone) countUpstreamError(metrics, attempt.candidate, end.failure);
  await ctx.ticket.settle(settlementOf(attempt, {
    statusCode: end.finished ? 200 : clientGone ? CLIENT_CLOSED_REQUEST : error?.status ?? 500,
    usage: end.usage,
    charge: end.finished || clientGone,
    ttftMs: end.ttftMs,
    wasStreaming: true,
    errorCode: end.finished ? null : clientGone ? 'client_closed_request' : error?.code ?? 'internal_error',
  }));
}

/** A stream that failed ends its writer with the gateway's error; a client that left is owed nothing. */
export function throwStreamFailure(ctx: RequestContext, failure: unknown): void {
  if (failure && !ctx.signal.aborted) throw toGatewayError(failure) ?? failure;
}
