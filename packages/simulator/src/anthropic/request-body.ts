import { jsonObjectBody } from '../request-body';
import type { RequestBody } from '../routing';
import { type AnthropicError, bodyTooLarge, invalidJsonBody } from './errors';

/**
 * The request's JSON object, or the error Anthropic gives for it. No body,
 * or JSON that is not an object, reads as `{}`: the validation then names
 * the first missing field, as the real API does.
 */
export function anthropicJsonBody(body: RequestBody): ReturnType<typeof jsonObjectBody<AnthropicError>> {
  return jsonObjectBody(body, { invalidJson: invalidJsonBody, tooLarge: bodyTooLarge });
}
