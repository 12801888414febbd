import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import { UpstreamError } from './upstream-error';

/**
 * One keep-alive connection pool for all upstream calls. Connections are
 * reused across requests, which is most of what makes a gateway cheap.
 */
const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 512, pipelining: 1 });

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

export interface UpstreamRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal: AbortSignal;
  /** Time allowed until the response headers arrive, and between body chunks after that. */
  timeoutMs: number;
}

/** Sends a request upstream; connection failures and time-outs become retryable UpstreamErrors. */
export async function sendUpstream(req: UpstreamRequest): Promise<UpstreamResponse> {
  try {
    const res = await request(req.url, {
      method: req.method ?? 'POST',
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      dispatcher: agent,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    return { status: res.statusCode, headers: res.headers, body: res.body };
  } catch (err) {
    throw toUpstreamError(err, req.signal);
  }
}

export function toUpstreamError(err: unknown, signal?: AbortSignal): unknown {
  if (err instanceof UpstreamError) return err;
  if (signal?.aborted) return err; // the client went away; not an upstream failure
  if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
    return new UpstreamError('the upstream did not answer in time', { status: 0, retryable: true, cause: 'timeout' });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new UpstreamError(`the upstream could not be reached: ${message}`, { status: 0, retryable: true, cause: 'connect' });
}

/** A failure while reading an upstream stream that had started: a stall is a time-out, anything else a cut. */
export function toStreamReadError(err: unknown, signal?: AbortSignal): unknown {
  if (err instanceof UpstreamError || signal?.aborted) return err;
  if (err instanceof undiciErrors.BodyTimeoutError) {
    return new UpstreamError('the upstream stream stalled', { status: 0, retryable: true, cause: 'timeout' });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new UpstreamError(`the upstream stream broke off: ${message}`, { status: 502, retryable: true, cause: 'stream_cut' });
}

/** Reads a whole upstream body as text, bounded so that a broken upstream cannot exhaust memory. */
export async function readBodyText(body: UpstreamResponse['body'], limitBytes = 64 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limitBytes) {
      body.destroy();
      throw new UpstreamError(`the upstream answer exceeded ${limitBytes} bytes`, { status: 502, retryable: false });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
