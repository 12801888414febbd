import type { GatewayMetrics } from '../observability/metrics';
import { Errors } from '../errors/errors';
import type { GatewayError } from '../errors/gateway-error';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import { sendError } from './send-error';

/**
 * A local concurrency limit: past `max` requests in flight, new ones get 503
 * gateway_overloaded with Retry-After instead of queueing without bound.
 * While shutting down, every new request is turned away the same way.
 *
 * GraphQL operations over graphql-ws (`admitOperation`) count against the
 * same limit while they run, but draining does not wait for them: the
 * GraphQL server ends them itself once the requests in flight are done.
 */
export class OverloadGuard {
  private inFlight = 0;
  private operations = 0;
  private draining = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly metrics: GatewayMetrics,
  ) {}

  /** HTTP requests in flight. */
  get current(): number {
    return this.inFlight;
  }

  /** Whether every place is taken (by requests and running operations alike): the next one would be refused. */
  get full(): boolean {
    return this.max > 0 && this.inFlight + this.operations >= this.max;
  }

  middleware = (_req: HttpRequest, res: HttpResponse, next: Next): void => {
    const refusal = this.refusal();
    if (refusal) {
      this.metrics.errors.inc({ code: refusal.code, status: String(refusal.status) });
      return sendError(res, refusal);
    }
    this.inFlight++;
    this.metrics.inFlight.set({}, this.inFlight);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.metrics.inFlight.set({}, this.inFlight);
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  };

  /**
   * Admits one operation that is not an HTTP request (a graphql-ws
   * operation, for as long as it runs): it holds a place under the same
   * limit until `release()`, which may be called more than once. Over the
   * limit, or while draining, the refusal comes back instead.
   */
  admitOperation(): { release: () => void } | GatewayError {
    const refusal = this.refusal();
    if (refusal) return refusal;
    this.operations++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.operations--;
      },
    };
  }

  private refusal(): GatewayError | undefined {
    if (this.draining) return Errors.shuttingDown();
    if (this.full) return Errors.overloaded(1);
    return undefined;
  }

  /** Stops admitting requests and resolves when those in flight have finished (or `timeoutMs` passed). */
  drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
