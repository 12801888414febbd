import { isRetryableStatus, parseRetryAfter, UpstreamError } from '../upstream-error';
import { anthropicErrorBodySchema, type AnthropicErrorBodyWire } from './anthropic-api';

/**
 * Anthropic's error envelope, `{"type":"error","error":{"type","message"},"request_id"}`,
 * as an UpstreamError. The error type is Anthropic's machine-readable code;
 * 529 `overloaded_error` is a busy upstream and worth another attempt.
 * @see https://docs.anthropic.com/en/api/errors
 */

/** The HTTP status each error type comes with; an in-stream `error` event has no status of its own. */
const STATUS_OF_ERROR_TYPE: { readonly [type: string]: number } = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function anthropicErrorFromResponse(status: number, headers: Record<string, string | string[] | undefined>, bodyText: string): UpstreamError {
  const error = parseErrorBody(bodyText)?.error;
  return new UpstreamError(error?.message || excerpt(bodyText) || `upstream answered HTTP ${status}`, {
    status,
    retryable: isRetryableStatus(status),
    retryAfterSeconds: parseRetryAfter(headers['retry-after']),
    code: error?.type ?? null,
    type: error?.type ?? null,
  });
}

/** An `event: error` inside a stream that had started: the HTTP call succeeded, the answer did not. */
export function anthropicStreamError(body: AnthropicErrorBodyWire): UpstreamError {
  const status = STATUS_OF_ERROR_TYPE[body.error.type] ?? 500;
  return new UpstreamError(body.error.message || 'the upstream reported an error mid-stream', {
    status,
    retryable: isRetryableStatus(status),
    code: body.error.type,
    type: body.error.type,
    cause: 'upstream_stream_error',
  });
}

function parseErrorBody(text: string): AnthropicErrorBodyWire | undefined {
  try {
    const parsed = anthropicErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // Not JSON (an HTML page from a proxy, say): the status alone has to do.
  }
}

function excerpt(text: string): string {
  return text.slice(0, 500);
}

/** An answer that is not what the Messages API sends: a broken proxy or a changed API, worth another route. */
export function malformedAnthropicAnswer(detail: string): UpstreamError {
  return new UpstreamError(`the upstream answer does not have the Anthropic Messages shape: ${detail.slice(0, 300)}`, { status: 502, retryable: true });
}

/** A streamed tool_use block whose `input_json_delta` pieces, put together, are not JSON. */
export function unparsableToolInput(blockIndex: number, id: string, name: string, input: string): UpstreamError {
  return malformedAnthropicAnswer(`the input of tool_use block ${blockIndex} (${name}, ${id}) is not JSON: ${input}`);
}

/** A streamed tool_use block still open when its message ended: its input never completed. */
export function incompleteToolInput(blockIndex: number, id: string, name: string, input: string): UpstreamError {
  return malformedAnthropicAnswer(`tool_use block ${blockIndex} (${name}, ${id}) ended without content_block_stop; its input so far: ${input}`);
}
