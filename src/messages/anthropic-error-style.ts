import type { GatewayError } from '../errors/gateway-error';
import type { ErrorStyle } from '../http/error-style';
import type { SseStyle } from '../http/sse-writer';

/**
 * Refusals in Anthropic's shape, `{"type": "error", "error": {type,
 * message}, "request_id"}`, for every answer of the Messages door (the API
 * key's and the rate limit's included), so Anthropic's SDKs raise their own
 * error classes; and the `error` event that ends a stream that failed after
 * it started. The status is the gateway's (its codes are in docs/errors.md);
 * the type is the one Anthropic gives that status, an overloaded or
 * unavailable gateway or upstream being `overloaded_error`.
 * @see https://docs.anthropic.com/en/api/errors
 */

const TYPE_OF_STATUS: { readonly [status: number]: string } = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Codes whose status alone says less than they do. */
const TYPE_OF_CODE: { readonly [code: string]: string } = {
  upstream_overloaded: 'overloaded_error',
  gateway_overloaded: 'overloaded_error',
  upstream_timeout: 'timeout_error',
};

export function anthropicErrorType(err: GatewayError): string {
  return TYPE_OF_CODE[err.registryCode] ?? TYPE_OF_STATUS[err.status] ?? (err.status >= 500 ? 'api_error' : 'invalid_request_error');
}

function anthropicError(err: GatewayError, requestId: string): object {
  return { type: 'error', error: { type: anthropicErrorType(err), message: err.message }, request_id: requestId };
}

export const ANTHROPIC_ERRORS: ErrorStyle = {
  body: anthropicError,
  headers: (requestId) => ({ 'request-id': requestId }),
};

/** Anthropic's stream: `event: <type>` before each `data:`, no end marker (`message_stop` is the end); a failure is an `error` event. */
export const ANTHROPIC_SSE: SseStyle = {
  frame: (item) => `event: ${(item as { type?: string }).type ?? 'message'}\ndata: ${JSON.stringify(item)}\n\n`,
  end: '',
  error: (err, requestId) => `event: error\ndata: ${JSON.stringify(anthropicError(err, requestId))}\n\n`,
};
