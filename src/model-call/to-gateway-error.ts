import { UnsupportedParameterError } from '../providers/unsupported-parameter';
import { UpstreamError } from '../providers/upstream-error';
import { GatewayError } from '../errors/gateway-error';

/**
 * What the client sees of an upstream failure. The client's own mistakes
 * (400, 413, 422) come back with the upstream's message (scrubbed of keys,
 * account ids, URLs and addresses), which says how to fix the request; every
 * other failure gets the gateway's own words, since the upstream's may name
 * the gateway's account, credential or network (an OpenAI 429 names the
 * organization). Failures that are the operator's business (a bad upstream
 * credential, a wrong model name in the config) become 502 so the client
 * knows retrying its request as is cannot help, and 429 keeps its
 * Retry-After; a credential refusal the upstream dressed as a 400 (Gemini's
 * `API_KEY_INVALID`) is one of those too. An answer the adapter cannot read
 * is told in the adapter's words, which name the upstream protocol and the
 * field, never the upstream's values. `details.upstream_code` keeps the
 * upstream's code.
 */
export function mapUpstreamError(err: UpstreamError): GatewayError {
  const { status, code, param, retryAfterSeconds, cause } = err.details;
  // Answered to clients (and stored) only when it is a plain identifier such as context_length_exceeded.
  const upstreamCode = code && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(code) ? code : undefined;
  const details = { upstream_status: status, ...(upstreamCode ? { upstream_code: upstreamCode } : {}) };
  if (cause === 'timeout') return new GatewayError('upstream_timeout', 'The upstream did not answer in time. Retry, or lower max_tokens.', { details });
  if (cause === 'connect') return new GatewayError('upstream_unreachable', 'The upstream could not be reached. Retry later.', { details });
  if (cause === 'stream_cut') return new GatewayError('upstream_stream_interrupted', 'The upstream stream ended before the answer was complete. Retry the request.', { details });
  if (cause === 'upstream_stream_error') return new GatewayError('upstream_stream_error', 'The upstream reported an error in the middle of the stream. Retry the request.', { details });
  if (cause === 'malformed_answer') {
    // The adapter's own words (which upstream protocol, which field), scrubbed all the same.
    return new GatewayError('upstream_error', `${clientSafe(err.message)}. Retry the request; if it persists, report the request_id.`, { details });
  }
  if (cause === 'credential_refused') return upstreamAuthFailed(details);
  if (status === 400 || status === 422) return new GatewayError('upstream_invalid_request', `The upstream rejected the request: ${clientSafe(err.message)}`, { param, details, upstreamCode });
  if (status === 413) return new GatewayError('request_body_too_large', `The upstream found the request too large: ${clientSafe(err.message)}. Reduce it and retry.`, { details });
  if (status === 429 && upstreamCode === 'insufficient_quota') {
    // The gateway's own upstream account is out of credit: the operator's problem, not the client's rate limit.
    return new GatewayError('upstream_quota_exhausted', 'The gateway\'s upstream account has run out of quota. This is an operator problem; report the request_id.', { details });
  }
  if (status === 429) {
    return new GatewayError('upstream_rate_limited', 'The upstream is rate limiting. Retry after the Retry-After delay.', {
      retryAfterSeconds: retryAfterSeconds ?? 1, details, upstreamCode,
    });
  }
  if (status === 401 || status === 403) return upstreamAuthFailed(details);
  if (status === 404) return new GatewayError('upstream_model_not_found', 'The upstream does not know the model this route names. This is an operator problem; report the request_id.', { details });
  if (status === 503 || status === 529) return new GatewayError('upstream_overloaded', 'The upstream is overloaded. Retry later with backoff.', { retryAfterSeconds: retryAfterSeconds ?? 2, details });
  return new GatewayError('upstream_error', `The upstream failed (HTTP ${status}). Retry later; if it persists, report the request_id.`, { details });
}

function upstreamAuthFailed(details: { upstream_status: number; upstream_code?: string }): GatewayError {
  return new GatewayError('upstream_auth_failed', 'The gateway\'s credential for the upstream was refused. This is an operator problem; report the request_id.', { details });
}

export function toGatewayError(err: unknown): GatewayError | undefined {
  if (err instanceof GatewayError) return err;
  if (err instanceof UnsupportedParameterError) return new GatewayError('unsupported_parameter', err.message, { param: err.param });
  if (err instanceof UpstreamError) return mapUpstreamError(err);
  return undefined;
}

/**
 * An upstream's message with what identifies the gateway's account or
 * network taken out: API keys, organization and project ids, URLs, IP
 * addresses.
 */
export function clientSafe(message: string): string {
  return message
    .replace(/\b(sk|pk|rk|xai|AIza)[-_A-Za-z0-9*.]{6,}/g, '[key]')
    .replace(/\b(org|proj)-[A-Za-z0-9]{6,}/g, '[account]')
    .replace(/\bhttps?:\/\/[^\s"'<>)]*[^\s"'<>).,:;]/g, '[url]')
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '[address]')
    .replace(/\[?[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\]?(?::\d+)?/gi, '[address]');
}
