import type { GatewayError } from '../errors/gateway-error';
import type { ErrorStyle } from '../http/error-style';
import type { SseStyle } from '../http/sse-writer';

/** The canonical RPC code name Google's APIs give with each HTTP status. @see https://cloud.google.com/apis/design/errors#handling_errors */
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  402: 'FAILED_PRECONDITION',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  422: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const TYPE_PREFIX = 'type.googleapis.com/google.rpc.';

/** The reasons Google's own clients look for, where the gateway's code means the same. */
const GOOGLE_REASONS: Record<string, string> = { invalid_api_key: 'API_KEY_INVALID' };

/**
 * A gateway error as Google's `google.rpc.Status`:
 * `{"error": {code, message, status, details}}`, the HTTP status in `code`
 * and its RPC name in `status`. The details say what the gateway's envelope
 * says: an `ErrorInfo` whose reason is the gateway's error code (Google's
 * own `API_KEY_INVALID` for a bad key) with the request id and the
 * parameter in its metadata, and a `RetryInfo` when the client should wait.
 * The HTTP status is the gateway's, as in every dialect: a bad key is 401
 * UNAUTHENTICATED (Google answers 400 INVALID_ARGUMENT with the reason
 * `API_KEY_INVALID`; the Google Gen AI SDK reads the HTTP status into
 * `ApiError.status`, and 401 tells a caller's retry logic that the request
 * itself was fine), with the same reason in its `ErrorInfo`.
 * @see https://cloud.google.com/apis/design/errors#error_model
 */
export function googleRpcStatus(err: GatewayError, requestId: string): { error: { code: number; message: string; status: string; details: object[] } } {
  const metadata: Record<string, string> = { request_id: requestId, code: err.code };
  if (err.options.param) metadata.param = err.options.param;
  const details: object[] = [{ '@type': `${TYPE_PREFIX}ErrorInfo`, reason: GOOGLE_REASONS[err.code] ?? err.code.toUpperCase(), domain: 'model-gateway', metadata }];
  if (err.options.retryAfterSeconds !== undefined) details.push({ '@type': `${TYPE_PREFIX}RetryInfo`, retryDelay: `${err.options.retryAfterSeconds}s` });
  return { error: { code: err.status, message: err.message, status: STATUS_NAMES[err.status] ?? (err.status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'), details } };
}

export const GOOGLE_RPC_ERRORS: ErrorStyle = { body: googleRpcStatus };

/**
 * `streamGenerateContent?alt=sse`: each `GenerateContentResponse` as a
 * `data:` event, no `[DONE]` (the stream ends when the connection does);
 * an error after the stream began is a last `data: {"error": ...}` event,
 * which the Google Gen AI SDK throws as an `ApiError` with its `code`.
 */
export const GEMINI_SSE: SseStyle = {
  frame: (item) => `data: ${JSON.stringify(item)}\r\n\r\n`,
  end: '',
  error: (err, requestId) => `data: ${JSON.stringify(googleRpcStatus(err, requestId))}\r\n\r\n`,
};
