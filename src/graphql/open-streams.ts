/** A stream that can always be ended, whether or not it was ever read. */
export interface EndableStream<T> {
  next(): Promise<IteratorResult<T>>;
  return(): Promise<IteratorResult<T>>;
}

/**
 * The upstream calls behind open subscriptions. A client that unsubscribes
 * or goes away must stop its upstream call at once; and on shutdown every
 * call is ended and its usage record settled before the database closes.
 */
export class OpenStreams {
  private readonly open = new Set<{ end(): Promise<unknown> }>();

  /**
   * Tracks a subscription's stream from the start of its upstream call:
   * `opening` is the stream to come. The returned iterator's `return()`
   * (unsubscribe, disconnect) aborts first: an async generator's own
   * `return()` waits for the chunk it is awaiting, which for a slow or
   * stalled upstream may never come. The stream's `finally` blocks then
   * settle its usage ticket.
   */
  async track<T>(controller: AbortController, opening: Promise<EndableStream<T>>): Promise<AsyncIterableIterator<T>> {
    const starting = {
      end: async () => {
        controller.abort();
        await opening.then((stream) => stream.return(), () => undefined);
      },
    };
    this.open.add(starting);
    let stream: EndableStream<T>;
    try {
      stream = await opening;
    } finally {
      this.open.delete(starting);
    }

    const running = { end: () => tracked.return!() };
    const finished = () => this.open.delete(running);
    const tracked: AsyncIterableIterator<T> = {
      next: async () => {
        try {
          const step = await stream.next();
          if (step.done) finished();
          return step;
        } catch (err) {
          finished();
          throw err;
        }
      },
      return: async () => {
        controller.abort();
        try {
          return await stream.return();
        } finally {
          finished();
        }
      },
      [Symbol.asyncIterator]: () => tracked,
    };
    this.open.add(running);
    return tracked;
  }

  /** Ends every open stream, those still waiting for their upstream included, and resolves once each has settled. */
  async endAll(): Promise<void> {
    await Promise.allSettled([...this.open].map((stream) => stream.end()));
  }
}
