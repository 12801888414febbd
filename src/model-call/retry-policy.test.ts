import { UpstreamError } from '../providers/upstream-error';
import { earnRetryBudget, MAX_RETRIES, resetRetryBudget, retryDelayMs } from './retry-policy';

const overloaded = (extra: Partial<UpstreamError['details']> = {}) => new UpstreamError('overloaded', { status: 503, retryable: true, ...extra });

describe('retry policy of the last route', () => {
  beforeEach(resetRetryBudget);

  it('retries a failure that may pass once, after a jittered pause', () => {
    expect(retryDelayMs(overloaded(), 1, () => 0.5)).toBe(125);
    expect(retryDelayMs(overloaded(), 1, () => 0)).toBe(0);
    expect(retryDelayMs(overloaded(), MAX_RETRIES + 1)).toBeUndefined();
  });

  it('honours a short Retry-After, and leaves a long one to the client', () => {
    expect(retryDelayMs(overloaded({ status: 429, retryAfterSeconds: 1 }), 1, () => 0.1)).toBe(1_000);
    expect(retryDelayMs(overloaded({ status: 429, retryAfterSeconds: 30 }), 1)).toBeUndefined();
  });

  it('does not retry a time-out, or a failure that is not retryable', () => {
    expect(retryDelayMs(overloaded({ status: 0, cause: 'timeout' }), 1)).toBeUndefined();
    expect(retryDelayMs(new UpstreamError('bad', { status: 400, retryable: false }), 1)).toBeUndefined();
    expect(retryDelayMs(new Error('a bug'), 1)).toBeUndefined();
  });

  it('keeps retries within a budget of a fifth of calls, with a reserve of ten', () => {
    let granted = 0;
    for (let i = 0; i < 50; i++) if (retryDelayMs(overloaded(), 1) !== undefined) granted++;
    expect(granted).toBe(10);
    for (let i = 0; i < 10; i++) earnRetryBudget();
    expect(retryDelayMs(overloaded(), 1)).toBeDefined();
    expect(retryDelayMs(overloaded(), 1)).toBeDefined();
    expect(retryDelayMs(overloaded(), 1)).toBeUndefined();
  });
});
