import type { IncomingMessage } from 'node:http';
import type { RequestBody } from './routing';

/**
 * Reads and parses a JSON body, keeping at most `maxBytes`. Past the cap the
 * rest is drained and dropped rather than the socket being reset, so the
 * client can still read the 413 the protocol answers with.
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<RequestBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(parseBody(chunks, size, maxBytes)));
    // The client went away mid-body: there is no body to give, and the exchange's signal reports the abort.
    req.on('error', () => resolve({ kind: 'none' }));
    req.on('close', () => resolve({ kind: 'none' }));
  });
}

function parseBody(chunks: Buffer[], size: number, maxBytes: number): RequestBody {
  if (size > maxBytes) return { kind: 'too_large' };
  if (size === 0) return { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(Buffer.concat(chunks, size).toString('utf8')) };
  } catch {
    return { kind: 'invalid_json' };
  }
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
