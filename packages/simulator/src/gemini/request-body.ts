import { jsonObjectBody } from '../request-body';
import type { RequestBody } from '../routing';
import { type GeminiError, invalidJsonPayload, payloadTooLarge } from './errors';

/**
 * The request's JSON object, or the error Google gives for it. No body, or
 * JSON that is not an object, reads as `{}`: the request then fails on its
 * missing `contents`, as the real API's does.
 */
export function geminiJsonBody(body: RequestBody, maxBytes: number): ReturnType<typeof jsonObjectBody<GeminiError>> {
  return jsonObjectBody(body, { invalidJson: invalidJsonPayload, tooLarge: () => payloadTooLarge(maxBytes) });
}
