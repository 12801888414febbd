/**
 * A failed upstream call, in terms the gateway can act on: whether another
 * route may be tried, how long the upstream asked us to wait, and what the
 * upstream said (kept for the client where it is the client's business).
 */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';

  constructor(
    message: string,
    readonly details: {
      /** Upstream HTTP status; 0 when no response arrived (connection error, time-out). */
      status: number;
      retryable: boolean;
      retryAfterSeconds?: number;
      /** The upstream's own machine-readable code and type, when it sent them. */
      code?: string | null;
      type?: string | null;
      param?: string | null;
      /** What failed before a response: `connect`, `timeout`, `stream_cut`. */
      cause?: 'connect' | 'timeout' | 'stream_cut' | 'upstream_stream_error';
    },
  ) {
    super(message);
  }
}

/** Connection errors, time-outs, 408, 409 (lock contention), 429 and 5xx may succeed on another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Parses a Retry-After header given in seconds or as an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
