import type { RateLimitRule } from './rate-limit-rules';

/** A limit as one request left it: how much of the minute remains, and when its window resets. */
export interface LimitState {
  rule: RateLimitRule;
  remaining: number;
  msBeforeReset: number;
}

/**
 * The `x-ratelimit-*` headers OpenAI sends and its SDKs read: for requests
 * and for tokens, the limit that is closest to running out (fewest
 * remaining; on a tie, the later reset). A unit with no limit gets no headers.
 */
export function rateLimitHeaders(states: LimitState[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const unit of ['requests', 'tokens'] as const) {
    let tightest: LimitState | undefined;
    for (const s of states) {
      if (s.rule.unit !== unit) continue;
      if (!tightest || s.remaining < tightest.remaining || (s.remaining === tightest.remaining && s.msBeforeReset > tightest.msBeforeReset)) tightest = s;
    }
    if (!tightest) continue;
    headers[`x-ratelimit-limit-${unit}`] = String(tightest.rule.perMinute);
    headers[`x-ratelimit-remaining-${unit}`] = String(Math.max(0, tightest.remaining));
    headers[`x-ratelimit-reset-${unit}`] = formatResetDuration(tightest.msBeforeReset);
  }
  return headers;
}

/** OpenAI's duration format for resets: `250ms`, `1.5s`, `1m0s`. */
export function formatResetDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  if (total < 1000) return `${total}ms`;
  const minutes = Math.floor(total / 60_000);
  const seconds = (total % 60_000) / 1000;
  const secondsText = `${Number(seconds.toFixed(3))}s`;
  return minutes ? `${minutes}m${secondsText}` : secondsText;
}

/** `Retry-After` in whole seconds, never 0 (a client would retry at once and be refused again). */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
