import { GatewayError } from '../errors/gateway-error';
import { UnsupportedParameterError } from '../providers/unsupported-parameter';
import { UpstreamError } from '../providers/upstream-error';
import { mapUpstreamError, toGatewayError } from './to-gateway-error';

type Details = UpstreamError['details'];
const upstream = (message: string, details: Partial<Details>) => new UpstreamError(message, { status: 0, retryable: true, ...details });

describe('toGatewayError', () => {
  it.each<[string, Partial<Details>, number, string, string]>([
    // [why, upstream details, status, code, message]
    ['a time-out', { cause: 'timeout' }, 504, 'upstream_timeout', 'The upstream did not answer in time. Retry, or lower max_tokens.'],
    ['a connection failure', { cause: 'connect' }, 502, 'upstream_unreachable', 'The upstream could not be reached. Retry later.'],
    ['a cut stream', { status: 200, cause: 'stream_cut' }, 502, 'upstream_stream_interrupted', 'The upstream stream ended before the answer was complete. Retry the request.'],
    ['an error event mid-stream', { status: 502, code: 'overloaded_error', cause: 'upstream_stream_error' }, 502, 'upstream_stream_error', 'The upstream reported an error in the middle of the stream. Retry the request.'],
    ['413', { status: 413, code: 'request_too_large' }, 413, 'request_body_too_large', 'The upstream found the request too large: boom. Reduce it and retry.'],
    ['429 insufficient_quota', { status: 429, code: 'insufficient_quota' }, 502, 'upstream_quota_exhausted', "The gateway's upstream account has run out of quota. This is an operator problem; report the request_id."],
    ['401', { status: 401, code: 'invalid_api_key' }, 502, 'upstream_auth_failed', "The gateway's credential for the upstream was refused. This is an operator problem; report the request_id."],
    ['403', { status: 403 }, 502, 'upstream_auth_failed', "The gateway's credential for the upstream was refused. This is an operator problem; report the request_id."],
    ['404', { status: 404, code: 'model_not_found' }, 502, 'upstream_model_not_found', 'The upstream does not know the model this route names. This is an operator problem; report the request_id.'],
    ['500', { status: 500 }, 502, 'upstream_error', 'The upstream failed (HTTP 500). Retry later; if it persists, report the request_id.'],
    ['402', { status: 402, code: 'billing_error' }, 502, 'upstream_error', 'The upstream failed (HTTP 402). Retry later; if it persists, report the request_id.'],
    ['504', { status: 504 }, 502, 'upstream_error', 'The upstream failed (HTTP 504). Retry later; if it persists, report the request_id.'],
    ['a status 0 without a cause', { status: 0 }, 502, 'upstream_error', 'The upstream failed (HTTP 0). Retry later; if it persists, report the request_id.'],
  ])('%s', (_, details, status, code, message) => {
    const err = toGatewayError(upstream('boom', details))!;
    expect(err).toBeInstanceOf(GatewayError);
    expect({ status: err.status, code: err.code, message: err.message }).toEqual({ status, code, message });
  });

  it('a credential refused under a 400 (Gemini API_KEY_INVALID) is upstream_auth_failed, keeping the upstream status and reason', () => {
    const err = toGatewayError(upstream('API key not valid. Please pass a valid API key.', { status: 400, retryable: true, code: 'API_KEY_INVALID', cause: 'credential_refused' }))!;
    expect({ status: err.status, type: err.type, code: err.code, message: err.message }).toEqual({
      status: 502, type: 'upstream_error', code: 'upstream_auth_failed', message: "The gateway's credential for the upstream was refused. This is an operator problem; report the request_id.",
    });
    expect(err.options.details).toStrictEqual({ upstream_status: 400, upstream_code: 'API_KEY_INVALID' });
    expect(err.message).not.toContain('API key not valid');
  });

  it('an answer the adapter cannot read is an upstream_error in the adapter\'s words, naming the protocol and the field', () => {
    const err = toGatewayError(upstream('Gemini sent a stream chunk the gateway cannot read: candidates.0.content.parts.1.functionCall.partialArgs: Invalid input: expected array, received number', { status: 502, cause: 'malformed_answer' }))!;
    expect({ status: err.status, type: err.type, code: err.code }).toEqual({ status: 502, type: 'upstream_error', code: 'upstream_error' });
    expect(err.message).toBe(
      'Gemini sent a stream chunk the gateway cannot read: candidates.0.content.parts.1.functionCall.partialArgs: Invalid input: expected array, received number. Retry the request; if it persists, report the request_id.',
    );
    expect(err.options.details).toStrictEqual({ upstream_status: 502 });
  });

  it('scrubs an unreadable answer\'s message all the same', () => {
    const err = toGatewayError(upstream('Gemini sent an answer the gateway cannot read: key AIzaSyA1b2C3d4E5f6G7h8 at https://proxy.internal/v1beta', { status: 502, cause: 'malformed_answer' }))!;
    expect(err.message).toBe('Gemini sent an answer the gateway cannot read: key [key] at [url]. Retry the request; if it persists, report the request_id.');
  });

  it('a cause wins over the status', () => {
    expect(toGatewayError(upstream('x', { status: 429, cause: 'timeout' }))!.code).toBe('upstream_timeout');
    expect(toGatewayError(upstream('x', { status: 400, cause: 'upstream_stream_error' }))!.code).toBe('upstream_stream_error');
  });

  it('keeps the upstream status, and its code when it gave one, in details', () => {
    expect(toGatewayError(upstream('x', { status: 404, code: 'model_not_found' }))!.options.details).toStrictEqual({ upstream_status: 404, upstream_code: 'model_not_found' });
    expect(toGatewayError(upstream('x', { status: 500, code: null }))!.options.details).toStrictEqual({ upstream_status: 500 });
    expect(toGatewayError(upstream('x', { cause: 'connect' }))!.options.details).toStrictEqual({ upstream_status: 0 });
  });

  it.each([
    [400, 'context_length_exceeded', 'messages', 'context_length_exceeded', 'messages'],
    [422, 'unprocessable', null, 'unprocessable', null],
    [400, null, 'max_tokens', 'upstream_invalid_request', 'max_tokens'],
    [400, undefined, undefined, 'upstream_invalid_request', undefined],
  ])('%d with upstream code %s: the client sees code %s and param %s', (status, code, param, publicCode, publicParam) => {
    const err = toGatewayError(upstream("This model's maximum context length is 128000 tokens.", { status, retryable: false, code, param }))!;
    expect({ status: err.status, type: err.type, code: err.code, registryCode: err.registryCode, param: err.options.param }).toEqual({
      status: 400, type: 'invalid_request_error', code: publicCode, registryCode: 'upstream_invalid_request', param: publicParam,
    });
    expect(err.message).toBe("The upstream rejected the request: This model's maximum context length is 128000 tokens.");
    expect(err.options.details).toStrictEqual({ upstream_status: status, ...(code ? { upstream_code: code } : {}) });
  });

  it.each([
    ['Retry-After kept', 'rate_limit_exceeded', 20, 'rate_limit_exceeded', 20],
    ['no Retry-After: 1 second', 'rate_limit_exceeded', undefined, 'rate_limit_exceeded', 1],
    ['no upstream code', null, 5, 'upstream_rate_limited', 5],
    ['Anthropic type as code', 'rate_limit_error', undefined, 'rate_limit_error', 1],
  ])('429, %s', (_, code, retryAfterSeconds, publicCode, retryAfter) => {
    const err = toGatewayError(upstream('Rate limit reached', { status: 429, code, retryAfterSeconds }))!;
    expect({ status: err.status, type: err.type, code: err.code, retryAfter: err.options.retryAfterSeconds }).toEqual({
      status: 429, type: 'rate_limit_error', code: publicCode, retryAfter,
    });
    expect(err.message).toBe('The upstream is rate limiting. Retry after the Retry-After delay.');
  });

  it.each([
    [503, undefined, 2],
    [529, undefined, 2],
    [503, 9, 9],
    [529, 30, 30],
  ])('%d is upstream_overloaded with Retry-After %s -> %d', (status, retryAfterSeconds, retryAfter) => {
    const err = toGatewayError(upstream('Overloaded', { status, retryAfterSeconds }))!;
    expect({ status: err.status, code: err.code, type: err.type, retryAfter: err.options.retryAfterSeconds }).toEqual({
      status: 503, code: 'upstream_overloaded', type: 'upstream_error', retryAfter,
    });
    expect(err.message).toBe('The upstream is overloaded. Retry later with backoff.');
  });

  it.each([
    ['a time-out', { cause: 'timeout' as const, retryAfterSeconds: 5 }],
    ['a 500', { status: 500, retryAfterSeconds: 5 }],
    ['a 400', { status: 400, retryAfterSeconds: 5 }],
  ])('only rate limits and overloads carry Retry-After, not %s', (_, details) => {
    expect(toGatewayError(upstream('x', details))!.options.retryAfterSeconds).toBeUndefined();
  });

  it('only 400 and 422 pass the upstream param through', () => {
    expect(toGatewayError(upstream('x', { status: 413, param: 'messages' }))!.options.param).toBeUndefined();
    expect(toGatewayError(upstream('x', { status: 500, param: 'messages' }))!.options.param).toBeUndefined();
  });

  it('an UnsupportedParameterError is a 400 unsupported_parameter naming the field', () => {
    const err = toGatewayError(new UnsupportedParameterError('max_tokens', 'Anthropic needs "max_tokens".'))!;
    expect({ status: err.status, code: err.code, param: err.options.param, message: err.message }).toEqual({
      status: 400, code: 'unsupported_parameter', param: 'max_tokens', message: 'Anthropic needs "max_tokens".',
    });
  });

  it('a GatewayError passes through as the same object', () => {
    const err = new GatewayError('model_not_found', 'nope', { param: 'model' });
    expect(toGatewayError(err)).toBe(err);
  });

  it.each([[new Error('boom')], [new TypeError('x is undefined')], ['a string'], [undefined], [{ status: 500 }]])('%p is not mapped', (err) => {
    expect(toGatewayError(err)).toBeUndefined();
  });

  it('mapUpstreamError is the same mapping', () => {
    const err = upstream('x', { status: 404 });
    expect(mapUpstreamError(err)).toEqual(toGatewayError(err));
  });

  it.each([
    ['an OpenAI 429 naming the organization', 429, 'Rate limit reached for gpt-4.1 in organization org-AbCdEf123456 on tokens per min (TPM): Limit 30000, Used 29000.', /org-|TPM/],
    ['a 500 naming an internal host', 500, 'upstream connect error: 10.12.0.7:8443 (gateway-egress.internal)', /10\.12|egress/],
    ['a 503 with a body of the upstream', 503, 'Service Unavailable from https://inference-7.internal.example/v1', /https|inference/],
    ['a stream error', 502, 'stream reset by peer fd00::17', /fd00/],
  ])('keeps the upstream\'s words out of %s', (_, status, message, leak) => {
    const err = toGatewayError(upstream(message, { status, cause: status === 502 ? 'upstream_stream_error' : undefined }))!;
    expect(err.message).not.toMatch(leak);
  });

  it.each([
    ['a masked key', 'Invalid value for "tools": sk-proj-****abcd is not allowed', 'Invalid value for "tools": [key] is not allowed'],
    ['a project id', 'Project proj-Zx81QwErTy does not have access', 'Project [account] does not have access'],
    ['a URL', 'Could not fetch https://files.internal/img.png: 403', 'Could not fetch [url]: 403'],
    ['an address', 'Image host 192.168.1.20:8080 unreachable', 'Image host [address] unreachable'],
    ['nothing to hide', "This model's maximum context length is 128000 tokens.", "This model's maximum context length is 128000 tokens."],
  ])('scrubs %s from a 400 the client needs to read', (_, message, shown) => {
    expect(toGatewayError(upstream(message, { status: 400 }))!.message).toBe(`The upstream rejected the request: ${shown}`);
  });
});
