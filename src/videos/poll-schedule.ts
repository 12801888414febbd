import type { VideoCapabilities } from '../config/gateway-config-schema';

/**
 * When to poll a video task next: the first poll after the typical
 * generation time, then every `interval_ms`, growing by a quarter each poll
 * up to `max_interval_ms` (8 to 10 seconds by default, as the spec
 * recommends). An upstream Retry-After pushes the next poll back further.
 */
export function firstPollAt(polling: VideoCapabilities['polling'], now: number): Date {
  return new Date(now + polling.first_poll_after_ms);
}

/**
 * Counted from the poll's due time rather than from when the poller got to
 * it, so a poller running a little late does not stretch every interval
 * (but never sooner than half an interval from now, to avoid bursts).
 */
export function nextPollAt(polling: VideoCapabilities['polling'], pollCount: number, dueAt: number, now: number, retryAfterSeconds?: number): Date {
  const backoff = Math.min(polling.max_interval_ms, Math.round(polling.interval_ms * 1.25 ** Math.max(0, pollCount - 1)));
  return new Date(Math.max(dueAt + backoff, now + backoff / 2, now + (retryAfterSeconds ?? 0) * 1000));
}
