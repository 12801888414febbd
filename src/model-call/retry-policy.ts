import { UpstreamError } from '../providers/upstream-error';

/** Retries of the last route, per call. */
export const MAX_RETRIES = 1;
/** The first retry waits a random time up to this (full jitter); each further one up to twice as long. */
const BACKOFF_MS = 250;
/** An upstream's Retry-After is honoured up to this; asking for longer, the failure goes to the client with it. */
const MAX_RETRY_AFTER_S = 2;
/** The retry budget, counted in calls: each call earns one, a retry costs five (a fifth of calls), and up to ten retries are saved. */
const CALLS_PER_RETRY = 5;
const BUDGET_CAP = 10 * CALLS_PER_RETRY;

/**
 * When the last route of a call fails before any byte reached the client,
 * it is tried once more, if the failure may pass (a 5xx, a 429 asking for
 * at most 2 s, a reset or a broken stream; not a time-out, whose time is
 * spent), after a jittered pause, so that callers failing together do not
 * come back together. Retries are budgeted per provider channel: at most a
 * fifth of the calls to that channel, with a small reserve for bursts, so
 * an upstream outage does not double the load on it, and spends no other
 * channel's retries. Like channel health (channel-health.ts), the budgets
 * are kept per resolved provider channel by an object each gateway makes
 * for itself, so two gateways in one process share none.
 */
export class RetryBudgets {
  private readonly budgets = new WeakMap<object, { calls: number }>();

  /** A call to `channel` earns its share of that channel's budget. */
  earn(channel: object): void {
    const budget = this.budgets.get(channel);
    if (budget) budget.calls = Math.min(BUDGET_CAP, budget.calls + 1);
  }

  /**
   * How long to wait before retrying on `channel` after `err` (retry number
   * `retry`, from 1), or undefined when it is not to be retried; a retry
   * granted is paid from the channel's budget.
   */
  retryDelayMs(channel: object, err: unknown, retry: number, random = Math.random): number | undefined {
    if (retry > MAX_RETRIES || !(err instanceof UpstreamError) || !err.details.retryable || err.details.cause === 'timeout') return undefined;
    const asked = err.details.retryAfterSeconds;
    if (asked !== undefined && asked > MAX_RETRY_AFTER_S) return undefined;
    const budget = this.budgetOf(channel);
    if (budget.calls < CALLS_PER_RETRY) return undefined;
    budget.calls -= CALLS_PER_RETRY;
    const jittered = random() * BACKOFF_MS * 2 ** (retry - 1);
    return asked !== undefined ? Math.max(asked * 1000, jittered) : jittered;
  }

  private budgetOf(channel: object): { calls: number } {
    let budget = this.budgets.get(channel);
    if (!budget) this.budgets.set(channel, (budget = { calls: BUDGET_CAP }));
    return budget;
  }
}
