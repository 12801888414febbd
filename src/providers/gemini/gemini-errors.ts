import { isRetryableStatus, parseRetryAfter, UpstreamError } from '../upstream-error';
import type { z } from 'zod';
import { type GeminiErrorWire, geminiErrorEnvelopeSchema } from './gemini-api';

const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';
const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';

/**
 * Gemini errors as UpstreamErrors. The envelope is Google's
 * `{"error":{code,message,status,details}}`; `status` (such as
 * `RESOURCE_EXHAUSTED`) is the machine-readable code, and a rate limit says
 * how long to wait in a `RetryInfo` detail rather than in a header.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 * @see https://cloud.google.com/apis/design/errors#error_details
 */
export function geminiErrorFromResponse(status: number, headers: Record<string, string | string[] | undefined>, bodyText: string): UpstreamError {
  const error = parseGeminiErrorBody(bodyText);
  if (isApiKeyRefusal(error)) return credentialRefused(error?.message || fallbackMessage(status, bodyText), status);
  const retryAfterSeconds = parseRetryAfter(headers['retry-after']) ?? retryInfoDelaySeconds(error);
  return new UpstreamError(error?.message || fallbackMessage(status, bodyText), {
    status,
    retryable: isRetryableStatus(status),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    code: error?.status ?? null,
    type: null,
    param: null,
  });
}

/**
 * Google refuses a bad API key with 400 `INVALID_ARGUMENT`, which would read
 * as the client's mistake; only the `ErrorInfo` detail's reason says that it
 * is the gateway's credential.
 * @see https://cloud.google.com/apis/design/errors#error_info
 */
function isApiKeyRefusal(error: GeminiErrorWire | undefined): boolean {
  return !!error?.details?.some((detail) => detail['@type'] === ERROR_INFO_TYPE && detail.reason === 'API_KEY_INVALID');
}

/**
 * The operator's credential, not the client's request: it becomes the
 * gateway's upstream-auth failure, and another route (with its own key) may
 * still answer, so it is worth trying.
 */
function credentialRefused(message: string, status: number): UpstreamError {
  return new UpstreamError(message, { status, retryable: true, code: 'API_KEY_INVALID', type: null, param: null, cause: 'credential_refused' });
}

/** An `error` payload inside a stream: the call had already succeeded at the HTTP level. */
export function geminiStreamError(payload: unknown): UpstreamError {
  const parsed = geminiErrorEnvelopeSchema.safeParse(payload);
  const error = parsed.success ? parsed.data.error : undefined;
  return new UpstreamError(error?.message || 'the upstream reported an error mid-stream', {
    status: 502,
    retryable: false,
    code: error?.status ?? null,
    cause: 'upstream_stream_error',
  });
}

/**
 * A prompt Gemini refused to answer (`promptFeedback.blockReason`, no
 * candidates): the client's content, so not worth another route.
 * @see https://ai.google.dev/api/generate-content#BlockReason
 */
export function promptBlockedError(blockReason: string): UpstreamError {
  return new UpstreamError(`Gemini blocked the prompt (block reason ${blockReason}).`, { status: 400, retryable: false, code: blockReason, type: 'prompt_blocked' });
}

/** What the gateway was reading when it found a shape it cannot read. */
export type GeminiAnswerUnit = 'answer' | 'stream chunk';

/**
 * An answer or stream chunk the adapter cannot read, naming the field (its
 * path in the upstream JSON, such as
 * `candidates.0.content.parts.1.functionCall.partialArgs.0`) and what is
 * wrong with it. The message is the adapter's own words, never the
 * upstream's values, so it may reach the client (see to-gateway-error.ts).
 * Asking again may give a readable answer, so it is retryable.
 */
export function malformedGeminiAnswer(detail: string, unit: GeminiAnswerUnit = 'answer'): UpstreamError {
  const what = unit === 'answer' ? 'an answer' : 'a stream chunk';
  return new UpstreamError(`Gemini sent ${what} the gateway cannot read: ${detail.slice(0, 300)}`, { status: 502, retryable: true, cause: 'malformed_answer' });
}

/** A field that failed the wire schema: the first issue, by its path, is enough to find it. */
export function malformedGeminiWire(error: z.ZodError, unit: GeminiAnswerUnit): UpstreamError {
  const issue = error.issues[0];
  if (!issue) return malformedGeminiAnswer('it does not have the generateContent shape', unit);
  const field = issue.path.map(String).join('.');
  return malformedGeminiAnswer(field ? `${field}: ${issue.message}` : issue.message, unit);
}

/** The body is an object, or (from the non-SSE stream endpoint) an array holding one. */
function parseGeminiErrorBody(text: string): GeminiErrorWire | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined; // Not JSON (an HTML page from a proxy, say): the status alone has to do.
  }
  const parsed = geminiErrorEnvelopeSchema.safeParse(Array.isArray(json) ? json[0] : json);
  return parsed.success ? parsed.data.error : undefined;
}

/** `RetryInfo.retryDelay` is a protobuf Duration in JSON: seconds with an `s` suffix, possibly fractional ("7s", "0.5s"). */
function retryInfoDelaySeconds(error: GeminiErrorWire | undefined): number | undefined {
  const retryInfo = error?.details?.find((detail) => detail['@type'] === RETRY_INFO_TYPE);
  const match = /^(\d+(?:\.\d+)?)s$/.exec(retryInfo?.retryDelay ?? '');
  return match ? Math.ceil(Number(match[1])) : undefined;
}

function fallbackMessage(status: number, bodyText: string): string {
  return bodyText.trim() ? bodyText.slice(0, 500) : `upstream answered HTTP ${status}`;
}
