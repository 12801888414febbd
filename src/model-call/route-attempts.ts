import type { SpendEstimate } from '../billing/spend-estimate';
import type { MeasuredUsage } from '../billing/usage-record';
import type { Settlement } from '../billing/usage-ticket';
import type { Candidate } from '../catalog/catalog';
import type { GatewayError } from '../errors/gateway-error';
import { UnsupportedParameterError } from '../providers/unsupported-parameter';
import { UpstreamError } from '../providers/upstream-error';
import { pricedRoutes } from './call-spend-estimate';
import type { GatewayMetrics } from '../observability/metrics';
import type { RequestContext } from './request-context';
import { toGatewayError } from './to-gateway-error';
import { COOL_DOWN_MS } from './channel-health';
import type { Routing } from './routing';
import { SpanKind, type Span } from '@opentelemetry/api';
import { genAiOperation, genAiProvider } from '../observability/gen-ai-names';
import { inSpan } from '../observability/tracing';

/** Client disconnected before the answer was complete (nginx's convention). */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * What routing reads of a candidate: whose prices apply (a catalog model's
 * id, or a search backend's priced name) on which lane, and which provider
 * channel is called. A catalog `Candidate` is one; so is a search backend.
 */
export interface RouteCandidate {
  model: { id: string };
  route: { provider: { name: string }; upstreamModel: string; lane: string };
}

/** One route tried for a request: the candidate, and how many routes were tried so far (1 for the first). */
export interface RouteAttempt<C extends RouteCandidate = Candidate> {
  candidate: C;
  number: number;
  /** The attempt's span while traces are on (a child of the request's): its upstream calls carry it on as `traceparent`. */
  span?: Span;
}

/** What a capability says of an attempt's end; the route it was served by is filled in from the attempt. */
export type AttemptOutcome = Omit<Settlement, 'pricedAs' | 'servedBy'>;

export function settlementOf(attempt: RouteAttempt<RouteCandidate>, outcome: AttemptOutcome): Settlement {
  const { route, model } = attempt.candidate;
  return {
    ...outcome,
    pricedAs: { modelId: model.id, lane: route.lane },
    servedBy: { provider: route.provider.name, upstream_model: route.upstreamModel, lane: route.lane, attempts: attempt.number },
  };
}

export interface RouteAttemptOptions<C extends RouteCandidate = Candidate> {
  wasStreaming?: boolean;
  /** Rewords the final error for the client (a family's own explanation of an upstream refusal). */
  explain?: (err: GatewayError, attempt: RouteAttempt<C>) => GatewayError;
  /**
   * What a call the client abandoned used: the upstream received the
   * request (and bills its prompt) even though nobody reads the answer.
   * Charged when given; without it an abandoned call is recorded uncharged.
   */
  abandonedUsage?: (attempt: RouteAttempt<C>) => MeasuredUsage;
  /**
   * Narrows which retryable failures move to the next route: a submission
   * the upstream may have accepted already (a time-out after sending) must
   * not be sent to a second route.
   */
  mayFallBack?: (err: unknown) => boolean;
  /** Whether the last route may be tried again after a failure that may pass (retry-policy.ts); yes unless the caller counts its attempts itself. */
  retryLastRoute?: boolean;
  /** Told of each failure that moves on to the next route or is retried (a search's receipt lists it). */
  onFallback?: (err: unknown, attempt: RouteAttempt<C>) => void;
  /** What the record of a failed call carries beside its status (a search's route receipt, a decision's stage). */
  failedRecord?: (err: unknown, attempt: RouteAttempt<C>) => Pick<Settlement, 'search' | 'decision'>;
  /**
   * The call's worst case, for the hold an account under spend control
   * places before the first route is tried (asked only for such accounts).
   */
  spend?: () => SpendEstimate;
}

/**
 * Routing with fallback, for every capability: places the call's hold
 * (accounts under spend control), then tries the candidates in order until
 * one answers, routes on cooling provider channels last (channel-health.ts;
 * the gateway's `routing` keeps each channel's health and retry budget).
 * A failure before any byte reached the client moves to the next route when it is worth it (an upstream failure marked
 * retryable, or a route whose protocol cannot express the request); the last
 * failure settles the usage record (uncharged, naming the route that failed)
 * and is thrown as the gateway error the client sees. Errors that are bugs
 * are thrown as they are, for the door to record as internal errors.
 */
export async function tryRoutes<C extends Candidate, T>(
  ctx: RequestContext,
  routing: Routing,
  candidates: C[],
  run: (attempt: RouteAttempt<C>) => Promise<T>,
  options: RouteAttemptOptions<C> = {},
): Promise<T> {
  // A hold placed already (Responses places its own before reading any file) is not estimated again: that would serialize the inlined files.
  if (options.spend && ctx.principal.spendControlled && !ctx.spend.hold) await ctx.spend.place(pricedRoutes(candidates), options.spend());
  return attemptRoutes(ctx, routing, routing.health.coolingLast(candidates), run, options);
}

/**
 * The candidates in order until one answers, as `tryRoutes` without the
 * hold: for callers whose candidates are not catalog models (search
 * backends), which place their hold and order their backends themselves.
 * The last route is retried once when its failure may pass
 * (retry-policy.ts); every failure counts against its provider channel.
 */
export async function attemptRoutes<C extends RouteCandidate, T>(
  ctx: RequestContext,
  routing: Routing,
  candidates: C[],
  run: (attempt: RouteAttempt<C>) => Promise<T>,
  options: Omit<RouteAttemptOptions<C>, 'spend'> = {},
): Promise<T> {
  const { metrics, health, retries } = routing;
  let earlier: unknown;
  // Non-streamed calls resolve with the whole answer; streamed ones with their first event.
  const latency = options.wasStreaming ? metrics.upstreamTimeToFirstToken : metrics.upstreamDuration;
  let number = 0;
  for (const [i, candidate] of candidates.entries()) {
    const channel = candidate.route.provider;
    // Each call to a channel earns its share of the channel's retry budget.
    retries.earn(channel);
    for (let retry = 0; ; retry++) {
      number++;
      const attempt: RouteAttempt<C> = { candidate, number, span: ctx.span && attemptSpan(routing, ctx, candidate, number) };
      const started = performance.now();
      try {
        const answer = await inSpan(attempt.span, () => run(attempt));
        latency.observe({ provider: channel.name, model: candidate.model.id }, (performance.now() - started) / 1000);
        health.noteAnswer(channel);
        return answer;
      } catch (err) {
        if (!ctx.signal.aborted) noteFailure(ctx, routing, candidate, err);
        const mayMove = fallsBack(err, ctx) && (options.mayFallBack?.(err) ?? true);
        if (mayMove && i < candidates.length - 1) {
          if (err instanceof UpstreamError) {
            metrics.upstreamFallbacks.inc({ provider: channel.name });
            ctx.logger.warn('upstream failed before the first byte; trying the next route', { provider: channel.name, upstream_status: err.details.status, reason: err.message });
          }
          options.onFallback?.(err, attempt);
          earlier = mostTelling(earlier, err);
          break;
        }
        // The last route: once more after a jittered pause, when the failure may pass and the channel's retry budget allows.
        const delay = mayMove && options.retryLastRoute !== false ? retries.retryDelayMs(channel, err, retry + 1) : undefined;
        if (delay !== undefined && (await pause(delay, ctx.signal))) {
          metrics.upstreamRetries.inc({ provider: channel.name });
          ctx.logger.warn('upstream failed before the first byte; trying the route again', { provider: channel.name, reason: (err as Error).message, delay_ms: Math.round(delay) });
          options.onFallback?.(err, attempt);
          earlier = mostTelling(earlier, err);
          continue;
        }
        throw await settleFailure(ctx, mostTelling(earlier, err), attempt, options);
      }
    }
  }
  throw new Error('no route to try: the catalog resolves every name to at least one');
}

/** An attempt's failure, counted by provider and status and against its channel (which may start a cool-down). */
function noteFailure(ctx: RequestContext, { metrics, health }: Routing, candidate: RouteCandidate, err: unknown): void {
  countUpstreamError(metrics, candidate, err);
  const channel = candidate.route.provider;
  if (!health.noteFailure(channel, err)) return;
  metrics.channelCoolDowns.inc({ provider: channel.name });
  ctx.logger.warn('provider channel keeps failing; it is tried last for a while', { provider: channel.name, cool_down_ms: COOL_DOWN_MS });
}

/** Waits `ms`; false when the client left meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One upstream attempt as a child span of the request's (GenAI semantic
 * conventions: operation, provider, requested and upstream model); a failure
 * is recorded on it. For a stream it covers the call until the first event.
 */
function attemptSpan(routing: Routing, ctx: RequestContext, { route, model }: RouteCandidate, number: number): Span | undefined {
  const operation = genAiOperation(ctx.ticket.endpoint);
  return routing.tracing.childSpan(ctx.span, `${operation} ${model.id}`, {
    kind: SpanKind.CLIENT,
    attributes: () => ({
      'gen_ai.operation.name': operation,
      'gen_ai.provider.name': genAiProvider((route.provider as { type?: string }).type ?? route.provider.name),
      'gen_ai.request.model': ctx.ticket.model || model.id,
      'gen_ai.response.model': route.upstreamModel,
      'gateway.request_id': ctx.requestId,
      'gateway.route.provider': route.provider.name,
      'gateway.attempt': number,
    }),
  });
}

export function countUpstreamError(metrics: GatewayMetrics, candidate: RouteCandidate, err: unknown): void {
  if (err instanceof UpstreamError) metrics.upstreamErrors.inc({ provider: candidate.route.provider.name, status: String(err.details.status) });
}

function fallsBack(err: unknown, ctx: RequestContext): boolean {
  // A route whose protocol cannot express the request is skipped before any call is made to it.
  if (err instanceof UnsupportedParameterError) return true;
  return err instanceof UpstreamError && err.details.retryable && !ctx.signal.aborted;
}

async function settleFailure<C extends RouteCandidate>(ctx: RequestContext, err: unknown, attempt: RouteAttempt<C>, options: Omit<RouteAttemptOptions<C>, 'spend'>): Promise<unknown> {
  const wasStreaming = options.wasStreaming ?? false;
  if (ctx.signal.aborted) {
    const usage = options.abandonedUsage?.(attempt) ?? null;
    await ctx.ticket.settle(settlementOf(attempt, { statusCode: CLIENT_CLOSED_REQUEST, usage, charge: usage !== null, ttftMs: null, wasStreaming, errorCode: 'client_closed_request', ...options.failedRecord?.(err, attempt) }));
    return err;
  }
  const gatewayError = toGatewayError(err);
  if (!gatewayError) return err;
  const told = options.explain ? options.explain(gatewayError, attempt) : gatewayError;
  await ctx.ticket.settle(settlementOf(attempt, { statusCode: told.status, usage: null, charge: false, ttftMs: null, wasStreaming, errorCode: told.code, ...options.failedRecord?.(err, attempt) }));
  return told;
}

/**
 * Which failure the client hears about when several routes failed: an
 * upstream's own failure says more than a later route's inability to
 * express the request.
 */
function mostTelling(earlier: unknown, latest: unknown): unknown {
  return latest instanceof UnsupportedParameterError && earlier instanceof UpstreamError ? earlier : latest;
}
