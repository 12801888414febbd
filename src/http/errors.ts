/**
 * Every error the gateway answers with, in one place. The envelope is the
 * OpenAI one plus `request_id` and optional `details`:
 * `{"error": {"message", "type", "code", "param", "request_id", "details"?}}`.
 */

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'overloaded_error'
  | 'upstream_error'
  | 'server_error';

export class GatewayError extends Error {
  override readonly name = 'GatewayError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly options: {
      type?: ErrorType;
      param?: string | null;
      details?: Record<string, unknown>;
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(message);
  }

  get type(): ErrorType {
    return this.options.type ?? defaultType(this.status);
  }
}

function defaultType(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 503) return 'overloaded_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export interface ErrorEnvelope {
  error: {
    message: string;
    type: ErrorType;
    code: string;
    param: string | null;
    request_id: string;
    details?: Record<string, unknown>;
  };
}

export function toEnvelope(err: GatewayError, requestId: string): ErrorEnvelope {
  const body: ErrorEnvelope['error'] = {
    message: err.message,
    type: err.type,
    code: err.code,
    param: err.options.param ?? null,
    request_id: requestId,
  };
  if (err.options.details) body.details = err.options.details;
  return { error: body };
}

export const Errors = {
  missingApiKey: () =>
    new GatewayError(401, 'missing_api_key', 'No API key given. Send it as "Authorization: Bearer <API_KEY>".'),
  invalidApiKey: () =>
    new GatewayError(401, 'invalid_api_key', 'The API key is not valid, has expired or was revoked. Ask the operator for a new key.'),
  adminDisabled: () =>
    new GatewayError(403, 'admin_disabled', 'The admin API is off. Start the gateway with GATEWAY_ADMIN_TOKEN set to use it.'),
  invalidAdminToken: () => new GatewayError(401, 'invalid_admin_token', 'The admin token is not valid.'),
  notFound: (method: string, path: string) =>
    new GatewayError(404, 'not_found', `No route for ${method} ${path}. See the README for the endpoints.`),
  methodNotAllowed: (method: string, path: string, allowed: string[]) =>
    new GatewayError(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`, {
      details: { allowed_methods: allowed },
    }),
  malformedJson: (detail: string) =>
    new GatewayError(400, 'invalid_json', `The request body is not valid JSON: ${detail}`),
  unsupportedMediaType: (expected: string) =>
    new GatewayError(415, 'unsupported_media_type', `Send the body as ${expected}.`),
  bodyTooLarge: (limit: number) =>
    new GatewayError(413, 'request_body_too_large', `The request body is larger than ${limit} bytes. Reduce it (for example, send fewer or smaller images) and retry.`),
  validation: (param: string, message: string) =>
    new GatewayError(400, 'invalid_parameter', `${param ? `"${param}" ` : ''}${message}`, { param: param || null }),
  modelNotFound: (model: string) =>
    new GatewayError(404, 'model_not_found', `The model "${model}" does not exist. GET /v1/models lists the models this key may use.`, { param: 'model' }),
  modelNotAllowed: (model: string) =>
    new GatewayError(403, 'model_not_allowed', `This API key may not use the model "${model}". GET /v1/models lists the models it may use.`, { param: 'model' }),
  endpointNotSupported: (model: string, endpoint: string) =>
    new GatewayError(400, 'model_not_supported_on_endpoint', `The model "${model}" does not serve ${endpoint}. Pick a model whose catalog entry lists this endpoint.`, { param: 'model' }),
  overloaded: (retryAfterSeconds: number) =>
    new GatewayError(503, 'gateway_overloaded', 'The gateway is at its concurrency limit. Retry later with backoff; this is not a provider failure.', { retryAfterSeconds }),
  shuttingDown: () =>
    new GatewayError(503, 'gateway_shutting_down', 'The gateway is shutting down. Retry on another instance or in a moment.', { retryAfterSeconds: 1 }),
  usageRecordNotFound: (id: string) =>
    new GatewayError(404, 'usage_record_not_found', `No usage record "${id}" for this API key.`, { param: 'request_id' }),
  internal: () =>
    new GatewayError(500, 'internal_error', 'The gateway failed unexpectedly. Retry; if it persists, report the request_id to the operator.'),
};
