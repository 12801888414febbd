import { jsonObjectBody } from '../request-body';
import type { RequestBody } from '../routing';
import { type OpenAIError, bodyTooLarge, invalidJsonBody } from './errors';

/**
 * The request's JSON object, or the error OpenAI gives for it. No body, or
 * JSON that is not an object, reads as `{}`: the real API then complains
 * about the first missing parameter.
 */
export function openaiJsonBody(body: RequestBody, maxBytes: number): ReturnType<typeof jsonObjectBody<OpenAIError>> {
  return jsonObjectBody(body, { invalidJson: invalidJsonBody, tooLarge: () => bodyTooLarge(maxBytes) });
}
