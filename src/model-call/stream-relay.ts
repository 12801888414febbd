import type { MeasuredUsage } from '../billing/usage-record';
import type { GatewayMetrics } from '../observability/metrics';
import type { RequestContext } from './request-context';
import type { RouteAttempt } from './route-attempts';
import { settleStream, throwStreamFailure } from './stream-end';

/** What one capability does with its upstream's stream; the relay does the rest. */
export interface StreamRelayHooks<E, O> {
  /** One upstream event: what the client gets for it (undefined: nothing, as for a usage report), noting what it needs for the usage. */
  forward(event: E): O | undefined;
  /** Whether any output reached the client yet: the first time it has, is the time to first token. */
  hasOutput(): boolean;
  /** Once the stream ended (whole, broken or abandoned): the usage to settle the record with. */
  usage(): MeasuredUsage;
  /** After a whole stream is settled: a last event for the client, if the capability sends one (chat's usage chunk). */
  trailer?(usage: MeasuredUsage): O | undefined;
}

/**
 * Relays an upstream stream that has begun to the client, for every
 * capability that streams: the events in order, the time to first token,
 * and, however the stream ends (whole, broken by the upstream, or left by
 * the client, when the writer stops early), the upstream stopped and the
 * usage record settled before the failure, if any, is thrown.
 */
export async function* relayStream<E, O>(
  ctx: RequestContext,
  metrics: GatewayMetrics,
  attempt: RouteAttempt,
  upstream: AsyncGenerator<E>,
  first: IteratorResult<E>,
  hooks: StreamRelayHooks<E, O>,
): AsyncGenerator<O> {
  let ttftMs: number | null = null;
  let finished = false;
  let failure: unknown;
  metrics.streamsInFlight.inc();
  try {
    for (let step = first; !step.done; step = await upstream.next()) {
      const out = hooks.forward(step.value);
      if (ttftMs === null && hooks.hasOutput()) ttftMs = ctx.ticket.elapsedMs();
      if (out !== undefined) yield out;
    }
    finished = true;
  } catch (err) {
    failure = err;
  } finally {
    metrics.streamsInFlight.dec();
    // Also reached when the writer stops early (client gone): stop the upstream and record what was used.
    if (!finished) await upstream.return(undefined).catch(() => undefined);
    const usage = hooks.usage();
    await settleStream(ctx, metrics, attempt, { finished, failure, usage, ttftMs });
    if (finished) {
      const last = hooks.trailer?.(usage);
      if (last !== undefined) yield last;
    }
  }
  throwStreamFailure(ctx, failure);
}
