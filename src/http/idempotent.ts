import { createHash } from 'node:crypto';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import type { Logger } from '../observability/logger';
import type { HttpRequest, HttpResponse, Middleware, Next } from './http-types';
import type { ClaimResult, IdempotencyClaim, IdempotencyStore } from './idempotency-store';
import { isMultipart } from './multipart';
import { locals } from './request-locals';

/** Printable ASCII, as the header carries it; Stripe and OpenAI clients send UUIDs. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Answers a retry must run again for: the first attempt's outcome was not the request's own. */
const NOT_KEPT = new Set([408, 409, 429]);

/**
 * `Idempotency-Key` on a POST that creates or charges (a video task, a
 * response, a completion): the first request with a key claims it and its
 * answer is kept for 24 hours; a retry of the same request (same method,
 * path and body) within that time gets the first answer back, with
 * `Idempotent-Replayed: true`, and runs nothing and charges nothing (its own
 * usage record is written uncharged). The same key with another request is
 * 409 `idempotency_key_reused`; a retry while the first is still running is
 * 409 `idempotency_request_in_progress` with `Retry-After`. A first attempt
 * that failed on the gateway's or the upstream's side (5xx, 408, 429, a
 * dropped connection) frees the key, so a retry runs again. Streams cannot
 * be replayed, so a streamed request with a key is refused, as is a
 * multipart one here (a file upload's key is claimed once its bytes are in:
 * files/idempotent-upload.ts).
 * Requests without the header pay nothing for this.
 */
export function idempotent(
  store: IdempotencyStore,
  endpoint: string | ((req: HttpRequest) => string),
  logger: Logger,
  /** Where a stream is asked for by the path (Gemini's `:streamGenerateContent`) rather than by `"stream": true`. */
  streamedByPath?: (req: HttpRequest) => boolean,
): Middleware {
  return async (req: HttpRequest, res: HttpResponse, next: Next) => {
    const key = idempotencyKeyOf(req);
    if (key === undefined) return next();
    if (isMultipart(req)) throw Errors.validation('Idempotency-Key', 'is taken on JSON requests only; send this request without it.');
    if ((req.body as { stream?: unknown } | undefined)?.stream === true || streamedByPath?.(req)) {
      throw Errors.validation('Idempotency-Key', 'cannot be used with a streamed answer ("stream": true, or a streaming method): a stream cannot be replayed; retry streams without it.');
    }
    const l = locals(res);
    const claim: IdempotencyClaim = {
      keyId: l.principal!.keyId, idempotencyKey: key, endpoint: typeof endpoint === 'string' ? endpoint : endpoint(req), requestId: l.requestId,
      requestHash: createHash('sha256').update(`${req.method} ${requestPath(req)}\n${JSON.stringify(req.body ?? null)}`).digest('hex'),
    };
    const found = await store.claim(claim);
    if (found.kind !== 'claimed') {
      const replayed = earlierAnswer(found, claim.requestHash);
      await l.ticket?.settle({ statusCode: replayed.answer.status, usage: null, pricedAs: null, charge: false, ttftMs: null, wasStreaming: false, servedBy: null, errorCode: null });
      return replay(res, replayed);
    }
    keepAnswer(res, store, claim, logger);
    next();
  };
}

/** The request's Idempotency-Key, checked; undefined when it sends none. */
export function idempotencyKeyOf(req: HttpRequest): string | undefined {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0]! : header;
  if (!KEY_PATTERN.test(key)) throw Errors.validation('Idempotency-Key', 'must be 1 to 255 printable ASCII characters (a UUID, say).');
  return key;
}

/**
 * What a retry gets when an earlier request holds its key: that request's
 * answer when it is done and was the same request; otherwise the 409 that
 * says why not (another request under the same key, or the first still running).
 */
export function earlierAnswer(found: Exclude<ClaimResult, { kind: 'claimed' }>, requestHash: string): Extract<ClaimResult, { kind: 'completed' }> {
  if (found.requestHash !== requestHash) {
    throw new GatewayError('idempotency_key_reused', 'This Idempotency-Key was used with a different request in the last 24 hours. Use a new key for a new request.', { param: 'Idempotency-Key' });
  }
  if (found.kind === 'in_progress') {
    throw new GatewayError('idempotency_request_in_progress', 'The first request with this Idempotency-Key is still running. Retry in a moment to get its answer.', { param: 'Idempotency-Key', retryAfterSeconds: 1 });
  }
  return found;
}

/** Sends the first request's answer again, marked as a replay. */
export function replay(res: HttpResponse, found: Extract<ClaimResult, { kind: 'completed' }>): void {
  res.statusCode = found.answer.status;
  if (found.answer.contentType) res.setHeader('Content-Type', found.answer.contentType);
  res.setHeader('Idempotent-Replayed', 'true');
  res.setHeader('X-Svc-Replayed-Request-Id', found.requestId);
  res.setHeader('Content-Length', Buffer.byteLength(found.answer.body));
  res.end(found.answer.body);
}

/** The path the request named (ids included, query left out): a retry is the same request on the same resource. */
function requestPath(req: HttpRequest): string {
  return ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0]!;
}

/**
 * Captures what the first request answers, and keeps it (or frees the key)
 * before the answer's last bytes go out: a client that retries the moment
 * it has the answer finds it kept, never "still running".
 */
function keepAnswer(res: HttpResponse, store: IdempotencyStore, claim: IdempotencyClaim, logger: Logger): void {
  const chunks: Buffer[] = [];
  const capture = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
  };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  const failed = (err: unknown) => logger.error('idempotency key not updated', { request_id: claim.requestId, err });
  let kept = false;
  let settling: Promise<unknown> = Promise.resolve();
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    capture(chunk, encoding);
    return (write as (...args: unknown[]) => boolean)(chunk, encoding, callback);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    capture(chunk, encoding);
    const status = res.statusCode;
    const contentType = res.getHeader('content-type');
    const settled = status >= 500 || NOT_KEPT.has(status)
      ? store.release(claim)
      : store.complete(claim, { status, contentType: contentType === undefined ? null : String(contentType), body: Buffer.concat(chunks).toString('utf8') }).then(() => void (kept = true));
    // The answer goes out once the key says what a retry gets; a failed update is logged and the answer still goes.
    settling = settled.catch(failed);
    void settling.finally(() => (end as (...args: unknown[]) => HttpResponse)(chunk, encoding, callback));
    return res;
  }) as typeof res.end;
  // A client gone before the answer was kept frees the key; once kept, the work is done and a retry gets its answer.
  res.once('close', () => {
    if (!res.writableFinished) void settling.then(() => (kept ? undefined : store.release(claim))).catch(failed);
  });
}
