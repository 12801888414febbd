/** Consecutive failures after which a backend is skipped by `auto`. */
const FAILURES_TO_SKIP = 2;
/** How long a failing backend is skipped before `auto` tries it again. */
const SKIP_MS = 30_000;

interface BackendState {
  consecutiveFailures: number;
  lastFailureAt: number;
}

/**
 * Which search backends answered lately, per instance: a backend that
 * failed twice in a row (time-outs, 5xx, refused credentials) is skipped by
 * `auto` for 30 s, then tried again; one success makes it healthy. Client
 * mistakes (a 400 the backend would give any backend) do not count.
 */
export class BackendHealth {
  private readonly states = new Map<string, BackendState>();

  constructor(private readonly now: () => number = Date.now) {}

  failed(backendId: string): void {
    const state = this.states.get(backendId) ?? { consecutiveFailures: 0, lastFailureAt: 0 };
    state.consecutiveFailures++;
    state.lastFailureAt = this.now();
    this.states.set(backendId, state);
  }

  answered(backendId: string): void {
    this.states.delete(backendId);
  }

  /** Why `auto` skips the backend now, or undefined when it is healthy. */
  skipReason(backendId: string): string | undefined {
    const state = this.states.get(backendId);
    if (!state || state.consecutiveFailures < FAILURES_TO_SKIP) return undefined;
    const left = state.lastFailureAt + SKIP_MS - this.now();
    if (left <= 0) return undefined;
    return `unhealthy: ${state.consecutiveFailures} failures in a row; tried again in ${Math.ceil(left / 1000)} s`;
  }
}
