import type { SubscribePayload } from 'graphql-ws';
import type { OperationPlace } from './operation-admission';

/** One graphql-ws operation while it runs: the place it holds, and what fires when it ends. */
interface RunningOperation {
  place: OperationPlace;
  ending: AbortController;
}

/**
 * The operations running on one graphql-ws connection, by their subscribe
 * message's payload (an id may be reused once completed). Ending one gives
 * its place back at once and fires its signal, so whatever its resolver
 * awaits (a task update, say) can stop too; ending is the same whether the
 * operation finished, the client unsubscribed or the socket went away, and
 * may happen more than once.
 */
export class RunningOperations {
  private readonly byPayload = new Map<SubscribePayload, RunningOperation>();
  private closed = false;

  /** Records an admitted operation; the signal fires when it ends (at once when the connection is already closed). */
  start(payload: SubscribePayload, place: OperationPlace): AbortSignal {
    const ending = new AbortController();
    this.byPayload.set(payload, { place, ending });
    if (this.closed) this.end(payload);
    return ending.signal;
  }

  end(payload: SubscribePayload): void {
    const operation = this.byPayload.get(payload);
    if (!operation) return;
    this.byPayload.delete(payload);
    operation.place.release();
    operation.ending.abort();
  }

  /** The connection is gone: every operation ends, and any admitted later (its subscribe was still being checked) ends at once. */
  close(): void {
    this.closed = true;
    for (const payload of [...this.byPayload.keys()]) this.end(payload);
  }
}
