import { UnsupportedParameterError } from '../providers/unsupported-parameter';
import { UpstreamError } from '../providers/upstream-error';
import { GatewayError } from './errors';

/**
 * What the client sees of an upstream failure. The client's own mistakes
 * (400, 413, 422) come back with the upstream's message; failures that are
 * the operator's business (a bad upstream credential, a wrong model name in
 * the config) become 502 so the client knows retrying its request as is
 * cannot help, and 429 keeps its Retry-After.
 */
export function mapUpstreamError(err: UpstreamError): GatewayError {
  const { status, code, param, retryAfterSeconds, cause } = err.details;
  const upstreamCode = code ?? undefined;
  const details = { upstream_status: status, ...(upstreamCode ? { upstream_code: upstreamCode } : {}) };
  if (cause === 'timeout') return new GatewayError(504, 'upstream_timeout', 'The upstream did not answer in time. Retry, or lower max_tokens.', { type: 'upstream_error', details });
  if (cause === 'connect') return new GatewayError(502, 'upstream_unreachable', 'The upstream could not be reached. Retry later.', { type: 'upstream_error', details });
  if (cause === 'stream_cut') return new GatewayError(502, 'upstream_stream_interrupted', 'The upstream stream ended before the answer was complete. Retry the request.', { type: 'upstream_error', details });
  if (cause === 'upstream_stream_error') return new GatewayError(502, 'upstream_stream_error', `The upstream reported an error mid-stream: ${err.message}`, { type: 'upstream_error', details });
  if (status === 400 || status === 422) return new GatewayError(400, upstreamCode ?? 'upstream_invalid_request', `The upstream rejected the request: ${err.message}`, { param, details });
  if (status === 413) return new GatewayError(413, 'request_body_too_large', `The upstream found the request too large: ${err.message}. Reduce it and retry.`, { details });
  if (status === 429 && upstreamCode === 'insufficient_quota') {
    // The gateway's own upstream account is out of credit: the operator's problem, not the client's rate limit.
    return new GatewayError(502, 'upstream_quota_exhausted', 'The gateway\'s upstream account has run out of quota. This is an operator problem; report the request_id.', { type: 'upstream_error', details });
  }
  if (status === 429) {
    return new GatewayError(429, upstreamCode ?? 'upstream_rate_limited', `The upstream is rate limiting: ${err.message}. Retry after the Retry-After delay.`, {
      type: 'rate_limit_error', retryAfterSeconds: retryAfterSeconds ?? 1, details,
    });
  }
  if (status === 401 || status === 403) return new GatewayError(502, 'upstream_auth_failed', 'The gateway\'s credential for the upstream was refused. This is an operator problem; report the request_id.', { type: 'upstream_error', details });
  if (status === 404) return new GatewayError(502, 'upstream_model_not_found', 'The upstream does not know the model this route names. This is an operator problem; report the request_id.', { type: 'upstream_error', details });
  if (status === 503 || status === 529) return new GatewayError(503, 'upstream_overloaded', `The upstream is overloaded: ${err.message}. Retry later with backoff.`, { type: 'upstream_error', retryAfterSeconds: retryAfterSeconds ?? 2, details });
  return new GatewayError(502, 'upstream_error', `The upstream failed (HTTP ${status}): ${err.message}`, { type: 'upstream_error', details });
}

export function toGatewayError(err: unknown): GatewayError | undefined {
  if (err instanceof GatewayError) return err;
  if (err instanceof UnsupportedParameterError) return new GatewayError(400, 'unsupported_parameter', err.message, { param: err.param });
  if (err instanceof UpstreamError) return mapUpstreamError(err);
  return undefined;
}
