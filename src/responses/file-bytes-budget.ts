import { GatewayError } from '../errors/gateway-error';

/** How long a refused caller is told to wait: about as long as a large file takes to go upstream. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The instance's bound on file bytes being dereferenced at once: a
 * Responses call reserves the stored size of the files it names before any
 * of them is read, and gives it back when its upstream call is over. A
 * reservation that would pass the bound is refused at once (503
 * `file_dereference_busy` with `Retry-After`), not queued: a queue of
 * 60 MB requests would hold their clients' connections and their memory.
 */
export class FileBytesBudget {
  private inFlight = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes reserved now, for metrics and tests. */
  get reserved(): number {
    return this.inFlight;
  }

  /** Reserves `bytes`; the returned function gives them back (once, however often it is called). */
  reserve(bytes: number): () => void {
    if (bytes <= 0) return () => {};
    if (this.inFlight + bytes > this.maxBytes) {
      throw new GatewayError(
        'file_dereference_busy',
        `This instance is already sending ${this.inFlight} bytes of files named by id upstream; ${bytes} more would pass its budget of ${this.maxBytes}. Nothing was read or sent: retry in ${RETRY_AFTER_SECONDS} seconds.`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS, details: { file_bytes: bytes, budget_bytes: this.maxBytes } },
      );
    }
    this.inFlight += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= bytes;
    };
  }
}
