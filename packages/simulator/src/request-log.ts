import type { IncomingHttpHeaders } from 'node:http';

/**
 * What the simulator received, for tests that must prove what the gateway
 * sent upstream (the body after its conversions, the headers it set) and that
 * a client's disconnect reached the upstream call (the aborted count).
 * A ring buffer, so a benchmark can run for hours without growing memory.
 */
export interface LoggedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; null when there was none or it was not JSON. */
  body: unknown;
}

export interface RequestLogSnapshot {
  /** Oldest first. */
  requests: LoggedRequest[];
  /** Requests received since the last clear, including those the ring buffer no longer holds. */
  received: number;
  /** Requests whose client went away before the response was complete. */
  aborted: number;
}

/** Credentials are logged as present but never as themselves. */
const SECRET_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'];
const REDACTED = '[redacted]';

export class RequestLog {
  private readonly entries: LoggedRequest[] = [];
  /** Where the next entry goes once the buffer is full. */
  private next = 0;
  private received = 0;
  private aborted = 0;
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  record(entry: LoggedRequest): void {
    this.received++;
    if (this.capacity === 0) return;
    const redacted = { ...entry, headers: redactSecrets(entry.headers) };
    if (this.entries.length < this.capacity) this.entries.push(redacted);
    else this.entries[this.next] = redacted;
    this.next = (this.next + 1) % this.capacity;
  }

  countAborted(): void {
    this.aborted++;
  }

  /** The newest `limit` requests (all held ones by default), oldest first. */
  snapshot(limit = this.capacity): RequestLogSnapshot {
    const oldestFirst = [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
    return { requests: oldestFirst.slice(Math.max(0, oldestFirst.length - limit)), received: this.received, aborted: this.aborted };
  }

  clear(): void {
    this.entries.length = 0;
    this.next = 0;
    this.received = 0;
    this.aborted = 0;
  }
}

function redactSecrets(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of SECRET_HEADERS) if (copy[name] !== undefined) copy[name] = REDACTED;
  return copy;
}
