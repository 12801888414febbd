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
      /**
       * What failed, where the status alone does not say it: no response
       * (`connect`, `timeout`), a stream that broke off or reported an error
       * (`stream_cut`, `upstream_stream_error`), an upstream credential
       * refused under a status that would blame the client
       * (`credential_refused`), or an answer the adapter cannot read
       * (`malformed_answer`, whose message the adapter wrote itself).
       */
      cause?: 'connect' | 'timeout' | 'stream_cut' | 'upstream_stream_error' | 'credential_refused' | 'malformed_answer';
    },
  ) {
    super(message);
  }
}

/** Connection errors, time-outs, 408, 409 (lock contention), 429 and 5xx may succeed on another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Parses a Retry-After header: delay seconds (a fraction rounded up), or an
 * HTTP date, in seconds from `now` (0 once it has passed). Anything else is
 * undefined: a negative delay, and any text that is not one of the three
 * HTTP date forms, which `Date.parse` alone would still read as some date
 * ("-3" is March 2001 to V8).
 * @see https://www.rfc-editor.org/rfc/rfc9110#field.retry-after
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  const delay = /^(-?)\d+(?:\.\d+)?$/.exec(raw);
  if (delay) return delay[1] ? undefined : Math.ceil(Number(raw));
  const date = parseHttpDate(raw);
  return date === undefined ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** `Sun, 06 Nov 1994 08:49:37 GMT`, the form senders must use. */
const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`, 'i');
/** `Sunday, 06-Nov-94 08:49:37 GMT`, obsolete. */
const RFC850_DATE = new RegExp(`^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`, 'i');
/** `Sun Nov  6 08:49:37 1994`, obsolete, and in GMT although it does not say so. */
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`, 'i');

/** Milliseconds since the epoch of an HTTP date in any of its three forms; undefined for anything else. */
function parseHttpDate(text: string): number | undefined {
  const dated = ASCTIME_DATE.test(text) ? `${text} GMT` : IMF_FIXDATE.test(text) || RFC850_DATE.test(text) ? text : undefined;
  const date = dated === undefined ? NaN : Date.parse(dated);
  return Number.isNaN(date) ? undefined : date;
}
