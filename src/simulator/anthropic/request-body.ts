import type { RequestBody } from '../routing';
import { type AnthropicError, bodyTooLarge, invalidJsonBody } from './errors';

/**
 * The request's JSON object, or the error Anthropic gives for it. No body,
 * or JSON that is not an object, reads as `{}`: the validation then names
 * the first missing field, as the real API does.
 */
export function anthropicJsonBody(body: RequestBody): { ok: true; value: object } | { ok: false; error: AnthropicError } {
  switch (body.kind) {
    case 'json':
      return { ok: true, value: typeof body.value === 'object' && body.value !== null && !Array.isArray(body.value) ? body.value : {} };
    case 'none':
      return { ok: true, value: {} };
    case 'invalid_json':
      return { ok: false, error: invalidJsonBody() };
    case 'too_large':
      return { ok: false, error: bodyTooLarge() };
  }
}
