import type { RequestBody } from '../routing';
import { type GeminiError, invalidJsonPayload, payloadTooLarge } from './errors';

/**
 * The request's JSON object, or the error Google gives for it. No body, or
 * JSON that is not an object, reads as `{}`: the request then fails on its
 * missing `contents`, as the real API's does.
 */
export function geminiJsonBody(body: RequestBody, maxBytes: number): { ok: true; value: object } | { ok: false; error: GeminiError } {
  switch (body.kind) {
    case 'json':
      return { ok: true, value: typeof body.value === 'object' && body.value !== null && !Array.isArray(body.value) ? body.value : {} };
    case 'none':
      return { ok: true, value: {} };
    case 'invalid_json':
      return { ok: false, error: invalidJsonPayload() };
    case 'too_large':
      return { ok: false, error: payloadTooLarge(maxBytes) };
  }
}
