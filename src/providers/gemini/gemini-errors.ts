import { isRetryableStatus, parseRetryAfter, UpstreamError } from '../upstream-error';
import { type GeminiErrorWire, geminiErrorEnvelopeSchema } from './gemini-api';

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

export function malformedGeminiAnswer(detail: string): UpstreamError {
  return new UpstreamError(`the upstream answer does not have the Gemini generateContent shape: ${detail.slice(0, 300)}`, { status: 502, retryable: true });
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
  const retryInfo = error?.details?.find((detail) => detail['@type'] === 'type.googleapis.com/google.rpc.RetryInfo');
  const match = /^(\d+(?:\.\d+)?)s$/.exec(retryInfo?.retryDelay ?? '');
  return match ? Math.ceil(Number(match[1])) : undefined;
}

function fallbackMessage(status: number, bodyText: string): string {
  return bodyText.trim() ? bodyText.slice(0, 500) : `upstream answered HTTP ${status}`;
}
