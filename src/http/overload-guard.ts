import type { GatewayMetrics } from '../observability/metrics';
import { Errors } from '../errors/errors';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import { sendError } from './send-error';

/**
 * A local concurrency limit: past `max` requests in flight, new ones get 503
 * gateway_overloaded with Retry-After instead of queueing without bound.
 * While shutting down, every new request is turned away the same way.
 */
export class OverloadGuard {
  private inFlight = 0;
  private draining = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly metrics: GatewayMetrics,
  ) {}

  get current(): number {
    return this.inFlight;
  }

  middleware = (_req: HttpRequest, res: HttpResponse, next: Next): void => {
    if (this.draining) return sendError(res, Errors.shuttingDown());
    if (this.max > 0 && this.inFlight >= this.max) return sendError(res, Errors.overloaded(1));
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
