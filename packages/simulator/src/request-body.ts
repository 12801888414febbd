import type { IncomingMessage } from 'node:http';
import type { RequestBody } from './routing';

/**
 * Reads and parses a JSON body, keeping at most `maxBytes`. Past the cap the
 * rest is drained and dropped rather than the socket being reset, so the
 * client can still read the 413 the protocol answers with.
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<RequestBody> {
  return readBody(req, maxBytes, (text) => {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      return { kind: 'invalid_json' };
    }
  });
}

/**
 * Reads a body of at most `maxBytes` (the rest drained and dropped) and
 * parses its non-empty text with `parse`.
 */
export function readBody(req: IncomingMessage, maxBytes: number, parse: (text: string) => RequestBody): Promise<RequestBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > maxBytes) return resolve({ kind: 'too_large' });
      resolve(size === 0 ? { kind: 'none' } : parse(Buffer.concat(chunks, size).toString('utf8')));
    });
    // The client went away mid-body: there is no body to give, and the exchange's signal reports the abort.
    req.on('error', () => resolve({ kind: 'none' }));
    req.on('close', () => resolve({ kind: 'none' }));
  });
}

/**
 * The body as a JSON object, or the protocol's own error for a malformed or
 * oversized one. No body, or JSON that is not an object, reads as `{}`: the
 * protocol's validation then names the first missing field, as real APIs do.
 */
export function jsonObjectBody<E>(body: RequestBody, errors: { invalidJson: () => E; tooLarge: () => E }): { ok: true; value: object } | { ok: false; error: E } {
  switch (body.kind) {
    case 'json':
      return { ok: true, value: typeof body.value === 'object' && body.value !== null && !Array.isArray(body.value) ? body.value : {} };
    case 'none':
      return { ok: true, value: {} };
    case 'invalid_json':
      return { ok: false, error: errors.invalidJson() };
    case 'too_large':
      return { ok: false, error: errors.tooLarge() };
  }
}
