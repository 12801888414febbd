import { UpstreamError } from '../providers/upstream-error';
import { MAX_RETRIES, RetryBudgets } from './retry-policy';

const overloaded = (extra: Partial<UpstreamError['details']> = {}) => new UpstreamError('overloaded', { status: 503, retryable: true, ...extra });

describe('retry policy of the last route', () => {
  const channel = { name: 'a' };

  it('retries a failure that may pass once, after a jittered pause', () => {
    const retries = new RetryBudgets();
    expect(retries.retryDelayMs(channel, overloaded(), 1, () => 0.5)).toBe(125);
    expect(retries.retryDelayMs(channel, overloaded(), 1, () => 0)).toBe(0);
    expect(retries.retryDelayMs(channel, overloaded(), MAX_RETRIES + 1)).toBeUndefined();
  });

  it('honours a short Retry-After, and leaves a long one to the client', () => {
    const retries = new RetryBudgets();
    expect(retries.retryDelayMs(channel, overloaded({ status: 429, retryAfterSeconds: 1 }), 1, () => 0.1)).toBe(1_000);
    expect(retries.retryDelayMs(channel, overloaded({ status: 429, retryAfterSeconds: 30 }), 1)).toBeUndefined();
  });

  it('does not retry a time-out, or a failure that is not retryable', () => {
    const retries = new RetryBudgets();
    expect(retries.retryDelayMs(channel, overloaded({ status: 0, cause: 'timeout' }), 1)).toBeUndefined();
    expect(retries.retryDelayMs(channel, new UpstreamError('bad', { status: 400, retryable: false }), 1)).toBeUndefined();
    expect(retries.retryDelayMs(channel, new Error('a bug'), 1)).toBeUndefined();
  });

  it('keeps retries within a budget of a fifth of calls, with a reserve of ten', () => {
    const retries = new RetryBudgets();
    let granted = 0;
    for (let i = 0; i < 50; i++) if (retries.retryDelayMs(channel, overloaded(), 1) !== undefined) granted++;
    expect(granted).toBe(10);
    for (let i = 0; i < 10; i++) retries.earn(channel);
    expect(retries.retryDelayMs(channel, overloaded(), 1)).toBeDefined();
    expect(retries.retryDelayMs(channel, overloaded(), 1)).toBeDefined();
    expect(retries.retryDelayMs(channel, overloaded(), 1)).toBeUndefined();
  });

  it("keeps a budget per channel: one channel's outage spends none of another's retries", () => {
    const retries = new RetryBudgets();
    const [down, up] = [{ name: 'down' }, { name: 'up' }];
    while (retries.retryDelayMs(down, overloaded(), 1) !== undefined);
    expect(retries.retryDelayMs(down, overloaded(), 1)).toBeUndefined();
    let granted = 0;
    for (let i = 0; i < 50; i++) if (retries.retryDelayMs(up, overloaded(), 1) !== undefined) granted++;
    expect(granted).toBe(10);
  });

  it('keeps budgets per owner: a second set (another gateway) starts full, whatever the first spent', () => {
    const [first, second] = [new RetryBudgets(), new RetryBudgets()];
    while (first.retryDelayMs(channel, overloaded(), 1) !== undefined);
    expect(second.retryDelayMs(channel, overloaded(), 1)).toBeDefined();
    expect(first.retryDelayMs(channel, overloaded(), 1)).toBeUndefined();
  });
});
