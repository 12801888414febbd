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

export function nextPollAt(polling: VideoCapabilities['polling'], pollCount: number, now: number, retryAfterSeconds?: number): Date {
  const backoff = Math.min(polling.max_interval_ms, Math.round(polling.interval_ms * 1.25 ** Math.max(0, pollCount - 1)));
  const delay = Math.max(backoff, (retryAfterSeconds ?? 0) * 1000);
  return new Date(now + delay);
}
