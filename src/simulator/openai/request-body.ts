import type { RequestBody } from '../routing';
import { type OpenAIError, bodyTooLarge, invalidJsonBody } from './errors';

/**
 * The request's JSON object, or the error OpenAI gives for it. No body, or
 * JSON that is not an object, reads as `{}`: the real API then complains
 * about the first missing parameter.
 */
export function openaiJsonBody(body: RequestBody, maxBytes: number): { ok: true; value: object } | { ok: false; error: OpenAIError } {
  switch (body.kind) {
    case 'json':
      return { ok: true, value: isObject(body.value) ? body.value : {} };
    case 'none':
      return { ok: true, value: {} };
    case 'invalid_json':
      return { ok: false, error: invalidJsonBody() };
    case 'too_large':
      return { ok: false, error: bodyTooLarge(maxBytes) };
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
