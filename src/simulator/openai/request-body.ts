import type { RequestBody } from '../routing';
import { type OpenAIError, bodyTooLarge, invalidJsonBody } from './errors';

/** The request's JSON, or the error OpenAI gives for it. No body reads as `{}`, as the real API treats it. */
export function openaiJsonBody(body: RequestBody, maxBytes: number): { ok: true; value: unknown } | { ok: false; error: OpenAIError } {
  switch (body.kind) {
    case 'json':
      return { ok: true, value: body.value };
    case 'none':
      return { ok: true, value: {} };
    case 'invalid_json':
      return { ok: false, error: invalidJsonBody() };
    case 'too_large':
      return { ok: false, error: bodyTooLarge(maxBytes) };
  }
}
