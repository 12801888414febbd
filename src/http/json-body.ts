import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { findDuplicateKey, type UniqueKeys } from './duplicate-json-keys';
import type { HttpRequest, HttpResponse, Next } from './http-types';

const DECODERS: Record<string, (() => Readable & NodeJS.WritableStream) | null> = {
  identity: null,
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Reads a JSON body into `req.body`, whatever its content type (curl's
 * default form type included): UTF-8, optionally gzip, deflate or br
 * encoded, at most `limit` bytes once decoded. With `jsonContentTypeOnly`
 * (the admin API's writes, where a browser form or a stray `text/plain`
 * must not pass for a command) a body must be declared `application/json`
 * (or `+json`), or it is refused with 415 unread. A request without a body
 * keeps `req.body` undefined; an empty one reads as `{}`. Every refusal is a
 * GatewayError (400 malformed or cut off, 413 too large, 415 other charset or
 * encoding), and the unread rest of a refused body is discarded so the
 * connection stays usable. With `uniqueKeys`, an object whose keys are ids
 * that repeats one is refused with `uniqueKeys.refusal` (JSON.parse would
 * keep the last of the two).
 */
export function jsonBody(limit: number, options: { jsonContentTypeOnly?: boolean; uniqueKeys?: UniqueKeys } = {}) {
  const { uniqueKeys } = options;
  return (req: HttpRequest, _res: HttpResponse, next: Next): void => {
    if (req.body !== undefined) return next();
    // Declared even when there is no body: Apollo's express integration checks for the property.
    req.body = undefined;
    if (!hasBody(req)) return next();
    if (options.jsonContentTypeOnly && !declaresJson(req.headers['content-type'])) {
      req.resume();
      return next(new GatewayError('unsupported_media_type', `This endpoint takes a JSON body: send it with "Content-Type: application/json" (got ${req.headers['content-type'] ? `"${req.headers['content-type']}"` : 'none'}).`));
    }
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1];
    if (charset && !/^utf-?8$/i.test(charset)) return next(Errors.unsupportedMediaType('UTF-8 JSON'));
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const decoder = DECODERS[encoding];
    if (decoder === undefined) return next(new GatewayError('unsupported_media_type', `Content-Encoding "${encoding}" is not supported; send identity, gzip, deflate or br.`));
    if (!decoder && Number(req.headers['content-length']) > limit) {
      req.resume();
      return next(Errors.bodyTooLarge(limit));
    }
    readBody(req, decoder?.(), limit, (err, text) => {
      if (err) return next(err);
      let body: unknown;
      try {
        body = parseJson(text!);
      } catch (parseErr) {
        return next(Errors.malformedJson((parseErr as Error).message));
      }
      if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
        return next(new GatewayError('json_too_deep', `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels. Flatten it (a tool's parameters schema, say) and retry.`));
      }
      const duplicate = uniqueKeys && findDuplicateKey(text!, uniqueKeys.paths);
      if (duplicate) return next(uniqueKeys.refusal(duplicate));
      req.body = body;
      next();
    });
  };
}

/** Whether the Content-Type is JSON: `application/json` or a `+json` type, whatever its parameters. */
function declaresJson(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0].trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** Whether the request carries a body at all (as `type-is` decides it). */
function hasBody(req: HttpRequest): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && !Number.isNaN(Number(req.headers['content-length'])));
}

/** Deeper bodies are refused: every later step (validation, token counting, conversion) may recurse over them. */
export const MAX_JSON_DEPTH = 128;

/** Walks the parsed value without recursion; its cost follows the number of objects and arrays, not the bytes. */
function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length) {
    const node = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

function parseJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.length === 0 ? {} : JSON.parse(body);
}

function readBody(req: HttpRequest, decoder: (Readable & NodeJS.WritableStream) | undefined, limit: number, done: (err: GatewayError | null, text?: string) => void): void {
  const source: Readable = decoder ?? req;
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (err: GatewayError | null) => {
    if (finished) return;
    finished = true;
    source.off('data', onData);
    source.off('end', ended);
    req.off('error', aborted);
    req.off('close', closed);
    if (decoder) {
      req.unpipe(decoder);
      decoder.destroy();
    }
    const text = err ? undefined : chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
    // Nothing keeps the bytes once read or refused: the request object outlives this read (a kept-alive
    // connection, whatever refers to it), and a body inflated to the limit held through it is memory the
    // process keeps and, freed late and in small pieces, the allocator rarely gives back.
    chunks.length = 0;
    if (err) {
      // Discard what is left of a refused body; the answer goes out meanwhile.
      req.on('error', () => undefined);
      req.resume();
      return done(err);
    }
    done(null, text);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) return finish(Errors.bodyTooLarge(limit));
    chunks.push(chunk);
  };
  const aborted = () => finish(new GatewayError('request_aborted', 'The client closed the connection while sending the body.'));
  source.on('data', onData);
  const ended = () => finish(null);
  source.once('end', ended);
  const closed = () => {
    if (!req.complete) aborted();
  };
  req.once('error', aborted);
  req.once('close', closed);
  if (decoder) {
    decoder.once('error', (err: Error) => finish(new GatewayError('invalid_body_encoding', `The request body could not be decoded as ${String(req.headers['content-encoding'])}: ${err.message}`)));
    req.pipe(decoder);
  }
}
