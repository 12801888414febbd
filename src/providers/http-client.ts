import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { pipeline, Readable } from 'node:stream';
import type { Span } from '@opentelemetry/api';
import { injectTraceHeaders } from '../observability/tracing';
import { ForbiddenAddressError, publicOnlyLookup } from './public-address';
import { parseSse, type SseEvent } from './sse-parser';
import { UpstreamError } from './upstream-error';

/**
 * Keep-alive connection pools for all upstream calls: connections are
 * reused across requests, which is most of what makes a gateway cheap.
 * Node's own HTTP client: on a reused connection it writes the request at
 * once, where undici first waits a turn of the event loop, and it costs
 * about 20 MB less memory. An idle connection is closed after 30 s, or
 * sooner when the upstream's Keep-Alive header says so.
 */
const POOL = { keepAlive: true, maxSockets: 512, maxFreeSockets: 512, scheduling: 'lifo' as const, timeout: 30_000 };
const AGENTS: Record<string, http.Agent> = { 'http:': new http.Agent(POOL), 'https:': new https.Agent(POOL) };
/** For fetches of URLs a client gave: connections only to public addresses, checked on the address connected to. */
const PUBLIC_ONLY_AGENTS: Record<string, http.Agent> = {
  'http:': new http.Agent({ ...POOL, lookup: publicOnlyLookup }),
  'https:': new https.Agent({ ...POOL, lookup: publicOnlyLookup }),
};

export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** What every upstream call carries: the abort that stops it and, while traces are on, the attempt's span it continues upstream (W3C `traceparent`). */
export interface UpstreamScope {
  signal: AbortSignal;
  span?: Span;
}

export interface UpstreamRequest extends UpstreamScope {
  method?: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** A stream is sent as it is read (chunked), at the pace the connection takes it. */
  body?: string | Buffer | Readable;
  /** Time allowed until the response headers arrive, and between body chunks after that. */
  timeoutMs: number;
  /** Connect only to public addresses (server-side fetches of client-given URLs, no SSRF). */
  publicOnly?: boolean;
}

/** The upstream was silent for longer than the request's `timeoutMs`. */
class UpstreamSilentError extends Error {
  constructor(readonly phase: 'headers' | 'body') {
    super(phase === 'headers' ? 'no response headers in time' : 'no body data in time');
  }
}

/**
 * Sends a request upstream and resolves with the response once its headers
 * arrived; the body is left to read. Connection failures and time-outs
 * become retryable UpstreamErrors; a client abort and a refused private
 * address reject with themselves.
 */
export function sendUpstream(req: UpstreamRequest): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return reject(new UpstreamError(`the upstream URL is not valid: ${req.url}`, { status: 0, retryable: false }));
    }
    const transport = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
    if (!transport) return reject(new UpstreamError(`the upstream URL is not http(s): ${req.url}`, { status: 0, retryable: false }));
    const headers: OutgoingHttpHeaders = { ...req.headers };
    injectTraceHeaders(headers, req.span);
    if (typeof req.body === 'string' || Buffer.isBuffer(req.body)) headers['content-length'] = Buffer.byteLength(req.body);
    let response: IncomingMessage | undefined;
    const out = transport.request(url, {
      method: req.method ?? 'POST',
      headers,
      agent: (req.publicOnly ? PUBLIC_ONLY_AGENTS : AGENTS)[url.protocol],
      signal: req.signal,
    });
    out.setTimeout(req.timeoutMs, () => {
      if (response) response.destroy(new UpstreamSilentError('body'));
      else out.destroy(new UpstreamSilentError('headers'));
    });
    out.once('response', (res) => {
      response = res;
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
    });
    // A streamed body that fails to read (its source broke) is that failure, not the upstream's.
    let bodyError: unknown;
    // Errors after the response started reach the reader through the body stream.
    out.on('error', (err) => {
      if (!response) reject(bodyError ?? (err instanceof ForbiddenAddressError ? err : toUpstreamError(err, req.signal)));
    });
    if (req.body instanceof Readable) {
      const body = req.body;
      body.once('error', (err) => (bodyError = err));
      pipeline(body, out, () => {});
    } else out.end(req.body);
  });
}

export function toUpstreamError(err: unknown, signal?: AbortSignal): unknown {
  if (err instanceof UpstreamError) return err;
  if (signal?.aborted) return err; // the client went away; not an upstream failure
  if (err instanceof UpstreamSilentError) {
    return new UpstreamError('the upstream did not answer in time', { status: 0, retryable: true, cause: 'timeout' });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new UpstreamError(`the upstream could not be reached: ${message}`, { status: 0, retryable: true, cause: 'connect' });
}

/** A failure while reading an upstream stream that had started: a stall is a time-out, anything else a cut. */
export function toStreamReadError(err: unknown, signal?: AbortSignal): unknown {
  if (err instanceof UpstreamError || signal?.aborted) return err;
  if (err instanceof UpstreamSilentError) {
    return new UpstreamError('the upstream stream stalled', { status: 0, retryable: true, cause: 'timeout' });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new UpstreamError(`the upstream stream broke off: ${message}`, { status: 502, retryable: true, cause: 'stream_cut' });
}

/** Reads a whole upstream body as text, bounded so that a broken upstream cannot exhaust memory. */
export async function readBodyText(body: Readable, limitBytes = 64 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) {
      body.destroy();
      throw new UpstreamError(`the upstream answer exceeded ${limitBytes} bytes`, { status: 502, retryable: false });
    }
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
}

/**
 * The events of an event-stream body, read so that leaving the loop early
 * (at `[DONE]`, or because the caller stopped) does not tear the connection
 * down by itself: after the loop, `releaseBody` says whether it may be reused.
 */
export function readSseEvents(body: Readable): AsyncGenerator<SseEvent> {
  return parseSse(body.iterator({ destroyOnReturn: false }));
}

/**
 * After reading an upstream body: a complete answer drains whatever is left
 * (a chunked terminator, say) so that its connection goes back to the pool;
 * an incomplete one is destroyed, which also aborts the upstream call.
 */
export function releaseBody(body: Readable, complete: boolean): void {
  if (complete) body.resume();
  else body.destroy();
}
