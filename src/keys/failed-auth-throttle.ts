import { GatewayError } from '../errors/gateway-error';

/** The window failures are counted in, from the first failure of a client. */
export const FAILED_AUTH_WINDOW_MS = 60_000;

/** Client addresses remembered at once; past it the one whose window began first is dropped. */
const MAX_CLIENTS = 10_000;

interface FailureWindow {
  failures: number;
  endsAt: number;
}

/**
 * Failed API-key checks per client address, in this process: each one may
 * cost a database lookup (a bogus key is new to the caches), so a client
 * gets `failuresPerMinute` of them a minute; past it, its keys are refused
 * with 429 `too_many_failed_authentications` (Retry-After: when its minute
 * ends) without being looked up. Only keys that must be looked up are held
 * to it: a valid key the gateway has cached is admitted before it is asked.
 * 0 turns it off.
 */
export class FailedAuthThrottle {
  private readonly windows = new Map<string, FailureWindow>();

  constructor(private readonly failuresPerMinute: number) {}

  /** The refusal for a client that has used up its failures, or undefined when its key may be looked up. */
  refusal(client: string, now = Date.now()): GatewayError | undefined {
    const window = this.current(client, now);
    if (this.failuresPerMinute <= 0 || !window || window.failures < this.failuresPerMinute) return undefined;
    const waitSeconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    return new GatewayError(
      'too_many_failed_authentications',
      `Too many requests with an invalid API key from this address (${this.failuresPerMinute} a minute): its keys are not checked for ${waitSeconds} s. Fix the key, then retry after Retry-After.`,
      { retryAfterSeconds: waitSeconds, details: { limit: this.failuresPerMinute, reset_seconds: waitSeconds } },
    );
  }

  /** Counts a key from this client that was not valid. */
  failed(client: string, now = Date.now()): void {
    if (this.failuresPerMinute <= 0) return;
    const window = this.current(client, now);
    if (window) {
      window.failures++;
      return;
    }
    if (this.windows.size >= MAX_CLIENTS) this.windows.delete(this.windows.keys().next().value!);
    this.windows.set(client, { failures: 1, endsAt: now + FAILED_AUTH_WINDOW_MS });
  }

  private current(client: string, now: number): FailureWindow | undefined {
    const window = this.windows.get(client);
    if (window && window.endsAt <= now) {
      this.windows.delete(client);
      return undefined;
    }
    return window;
  }
}
