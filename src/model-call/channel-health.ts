import { UpstreamError } from '../providers/upstream-error';

/** Consecutive retryable failures after which a provider channel cools down. */
export const COOL_DOWN_AFTER_FAILURES = 5;
/** How long a channel that keeps failing is tried last. */
export const COOL_DOWN_MS = 10_000;

interface ChannelState {
  failures: number;
  coolingUntil: number;
}

/**
 * Provider channels that keep failing get a rest: after five retryable
 * failures in a row (5xx, 429, a reset, a time-out) with no answer between
 * them, a channel is tried after every other route of a request for 10 s,
 * so that requests with another route stop paying for its failures first.
 * A request whose routes are all cooling still tries them (the first one
 * to answer ends the cool-down), so nobody is refused for it. State is
 * kept per resolved provider channel (a catalog revision resolves its
 * own), in an object each gateway makes for itself.
 */
export class ChannelHealth {
  private readonly channels = new WeakMap<object, ChannelState>();

  isCooling(channel: object, now = Date.now()): boolean {
    return (this.channels.get(channel)?.coolingUntil ?? 0) > now;
  }

  /** The candidates with those on cooling channels moved to the end (in their order); the same array when none is cooling. */
  coolingLast<C extends { route: { provider: object } }>(candidates: C[], now = Date.now()): C[] {
    if (!candidates.some((c) => this.isCooling(c.route.provider, now))) return candidates;
    return [...candidates.filter((c) => !this.isCooling(c.route.provider, now)), ...candidates.filter((c) => this.isCooling(c.route.provider, now))];
  }

  /** Counts an attempt's failure against its channel; true when this failure started a cool-down. */
  noteFailure(channel: object, err: unknown, now = Date.now()): boolean {
    if (!(err instanceof UpstreamError) || !err.details.retryable) return false;
    let state = this.channels.get(channel);
    if (!state) this.channels.set(channel, (state = { failures: 0, coolingUntil: 0 }));
    state.failures++;
    if (state.failures < COOL_DOWN_AFTER_FAILURES || state.coolingUntil > now) return false;
    state.coolingUntil = now + COOL_DOWN_MS;
    return true;
  }

  /** An answer from the channel: its count starts over and any cool-down ends. */
  noteAnswer(channel: object): void {
    const state = this.channels.get(channel);
    if (state) {
      state.failures = 0;
      state.coolingUntil = 0;
    }
  }
}
