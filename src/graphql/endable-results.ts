const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * An operation's stream of results that ends the moment it is told to.
 * graphql-ws awaits `return()` when a client unsubscribes and, for every
 * operation, when the socket closes (only then does it report the close);
 * an async generator's own `return()` waits until the generator reaches
 * its next `yield`, which for one awaiting an event may be never. Here
 * `return()` calls `end` and resolves at once, a `next()` still waiting
 * resolves as done, and the source is told to return in the background.
 */
export function endableResults<T>(source: AsyncIterable<T>, end: () => void): AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> } {
  const iterator = source[Symbol.asyncIterator]();
  let ended = false;
  let waiting: ((step: IteratorResult<T>) => void) | undefined;
  const finish = () => {
    if (ended) return;
    ended = true;
    end();
    waiting?.(DONE);
    waiting = undefined;
    // Settles once the source reaches a point where it can stop; nothing waits for it.
    void Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => undefined);
  };
  const results: AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> } = {
    next: () => {
      if (ended) return Promise.resolve(DONE);
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waiting = resolve;
        iterator.next().then(
          (step) => {
            waiting = undefined;
            resolve(step);
          },
          (err: unknown) => {
            waiting = undefined;
            reject(err);
          },
        );
      });
    },
    return: () => {
      finish();
      return Promise.resolve(DONE);
    },
    [Symbol.asyncIterator]: () => results,
  };
  return results;
}
