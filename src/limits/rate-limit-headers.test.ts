import { formatResetDuration, rateLimitHeaders, retryAfterSeconds } from './rate-limit-headers';
import type { RateLimitRule } from './rate-limit-rules';

const rule = (scope: RateLimitRule['scope'], unit: RateLimitRule['unit'], perMinute: number): RateLimitRule => ({ scope, unit, perMinute, subject: 's' });

describe('x-ratelimit headers', () => {
  it('show, per unit, the limit closest to running out', () => {
    const headers = rateLimitHeaders([
      { rule: rule('key', 'requests', 10), remaining: 7, msBeforeReset: 30_000 },
      { rule: rule('account', 'requests', 100), remaining: 2, msBeforeReset: 5_000 },
      { rule: rule('model', 'tokens', 1000), remaining: 900, msBeforeReset: 61_500 },
    ]);
    expect(headers).toEqual({
      'x-ratelimit-limit-requests': '100', 'x-ratelimit-remaining-requests': '2', 'x-ratelimit-reset-requests': '5s',
      'x-ratelimit-limit-tokens': '1000', 'x-ratelimit-remaining-tokens': '900', 'x-ratelimit-reset-tokens': '1m1.5s',
    });
  });

  it('leave out a unit that has no limit', () => {
    expect(Object.keys(rateLimitHeaders([{ rule: rule('key', 'requests', 3), remaining: 0, msBeforeReset: 10 }]))).toEqual(['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests']);
  });

  it('format resets as OpenAI does and never ask for a retry in 0 seconds', () => {
    expect(formatResetDuration(250)).toBe('250ms');
    expect(formatResetDuration(60_000)).toBe('1m0s');
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(41_200)).toBe(42);
  });
});
