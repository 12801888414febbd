/**
 * A time limit on a piece of work that is sure to fire: an AbortSignal
 * aborted by a referenced timer, or as soon as one of its parent signals
 * aborts (the client leaving, an enclosing deadline). The timer and the
 * parents' listeners hold it, so nothing can collect it before it fires
 * (an `AbortSignal.timeout` inside `AbortSignal.any` held by nothing is
 * collected on Node 20 and never aborts). `clear()` stops the timer and
 * lets go of the parents once the work is done; `run` does both.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly parents: AbortSignal[];
  private timedOut = false;

  constructor(
    readonly ms: number,
    parents: Array<AbortSignal | undefined> = [],
  ) {
    this.parents = parents.filter((p): p is AbortSignal => p !== undefined);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.stop(new DOMException(`The operation timed out after ${ms} ms.`, 'TimeoutError'));
    }, ms);
    for (const parent of this.parents) {
      if (parent.aborted) this.stop(parent.reason);
      else parent.addEventListener('abort', this.onParentAbort);
    }
  }

  /** Runs `work` under a deadline of `ms` (and `parents`), and clears it when the work ends either way. */
  static async run<T>(ms: number, parents: Array<AbortSignal | undefined>, work: (deadline: Deadline) => Promise<T>): Promise<T> {
    const deadline = new Deadline(ms, parents);
    try {
      return await work(deadline);
    } finally {
      deadline.clear();
    }
  }

  /** Aborts when the time runs out or a parent aborts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether this deadline's own time ran out (not a parent's abort). */
  get expired(): boolean {
    return this.timedOut;
  }

  clear(): void {
    clearTimeout(this.timer);
    for (const parent of this.parents) parent.removeEventListener('abort', this.onParentAbort);
  }

  private readonly onParentAbort = (event: Event): void => {
    this.stop((event.target as AbortSignal).reason);
  };

  private stop(reason: unknown): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    this.controller.abort(reason);
  }
}
