import type { RequestHandler } from 'express';
import { Errors } from '../errors/errors';

/**
 * A part of the gateway that is loaded and started on its first use rather
 * than at start-up (GraphQL: its schema, Apollo and graphql-ws are some
 * 35 MB of memory an instance serving only the REST API never needs).
 * Uses wait for `open()` (the gateway's start) and end with `stop()`;
 * concurrent first uses share one start, and a start that fails is tried
 * again by the next use.
 */
export class StartOnFirstUse<T extends { stop(): Promise<void> }> {
  private starting: Promise<T> | undefined;
  private state: 'closed' | 'open' | 'stopped' = 'closed';

  constructor(private readonly startPart: () => Promise<T>) {}

  open(): void {
    if (this.state === 'closed') this.state = 'open';
  }

  /** The started part, starting it now if this is its first use; undefined before `open()` and after `stop()`. */
  get(): Promise<T> | undefined {
    if (this.state !== 'open') return undefined;
    this.starting ??= this.startPart().catch((err: unknown) => {
      this.starting = undefined;
      throw err;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    const starting = this.starting;
    this.starting = undefined;
    const part = await starting?.catch(() => undefined);
    await part?.stop();
  }
}

/** An express handler that hands each request to the part's own handler; outside its open time, the gateway is shutting down. */
export function servedOnFirstUse(part: StartOnFirstUse<{ handler: RequestHandler; stop(): Promise<void> }>): RequestHandler {
  return (req, res, next) => {
    const running = part.get();
    if (!running) return next(Errors.shuttingDown());
    running.then((r) => r.handler(req, res, next), next);
  };
}
