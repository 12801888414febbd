import { GatewayError } from './gateway-error';

/** The gateway errors raised in more than one place, with their messages. */
export const Errors = {
  missingApiKey: () =>
    new GatewayError('missing_api_key', 'No API key given. Send it as "Authorization: Bearer <API_KEY>" (or in "x-api-key", or "x-goog-api-key" for Gemini clients).'),
  invalidApiKey: () =>
    new GatewayError('invalid_api_key', 'The API key is not valid, has expired or was revoked. Ask the operator for a new key.'),
  adminDisabled: () =>
    new GatewayError('admin_disabled', 'The admin API is off. Start the gateway with GATEWAY_ADMIN_TOKEN set to use it.'),
  invalidAdminToken: () => new GatewayError('invalid_admin_token', 'The admin token is not valid.'),
  metricsTokenRequired: () =>
    new GatewayError('metrics_token_required', '/metrics on the public port needs "Authorization: Bearer <token>" with GATEWAY_METRICS_TOKEN or GATEWAY_ADMIN_TOKEN; or set GATEWAY_OPS_PORT and scrape it there.'),
  notFound: (method: string, path: string) =>
    new GatewayError('not_found', `No route for ${method} ${path}. See the README for the endpoints.`),
  methodNotAllowed: (method: string, path: string, allowed: string[]) =>
    new GatewayError('method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`, {
      details: { allowed_methods: allowed },
    }),
  malformedJson: (detail: string) => new GatewayError('invalid_json', `The request body is not valid JSON: ${detail}`),
  unsupportedMediaType: (expected: string) => new GatewayError('unsupported_media_type', `Send the body as ${expected}.`),
  bodyTooLarge: (limit: number) =>
    new GatewayError('request_body_too_large', `The request body is larger than ${limit} bytes. Reduce it (for example, send fewer or smaller images) and retry.`),
  requestAborted: () => new GatewayError('request_aborted', 'The client closed the connection while sending the body.'),
  validation: (param: string, message: string) =>
    new GatewayError('invalid_parameter', `${param ? `"${param}" ` : ''}${message}`, { param: param || null }),
  modelNotFound: (model: string) =>
    new GatewayError('model_not_found', `The model "${model}" does not exist. GET /v1/models lists the models this key may use.`, { param: 'model' }),
  modelNotAllowed: (model: string) =>
    new GatewayError('model_not_allowed', `This API key may not use the model "${model}". GET /v1/models lists the models it may use.`, { param: 'model' }),
  endpointNotSupported: (model: string, endpoint: string) =>
    new GatewayError('model_not_supported_on_endpoint', `The model "${model}" does not serve ${endpoint}. Pick a model whose catalog entry lists this endpoint.`, { param: 'model' }),
  providerNotSupported: (providerType: string, what: string) =>
    new GatewayError('provider_not_supported', `No ${what} adapter for provider type "${providerType}".`),
  overloaded: (retryAfterSeconds: number) =>
    new GatewayError('gateway_overloaded', 'The gateway is at its concurrency limit. Retry later with backoff; this is not a provider failure.', { retryAfterSeconds }),
  shuttingDown: () =>
    new GatewayError('gateway_shutting_down', 'The gateway is shutting down. Retry on another instance or in a moment.', { retryAfterSeconds: 1 }),
  usageRecordNotFound: (id: string) =>
    new GatewayError('usage_record_not_found', `No usage record "${id}" for this API key.`, { param: 'request_id' }),
  internal: () =>
    new GatewayError('internal_error', 'The gateway failed unexpectedly. Retry; if it persists, report the request_id to the operator.'),
};
