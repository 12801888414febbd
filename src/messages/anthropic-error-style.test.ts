import { GatewayError } from '../errors/gateway-error';
import { ANTHROPIC_ERRORS, ANTHROPIC_SSE, anthropicErrorType } from './anthropic-error-style';

describe("the gateway's errors in Anthropic's shape", () => {
  it.each([
    ['invalid_parameter', 'invalid_request_error'],
    ['unsupported_parameter', 'invalid_request_error'],
    ['missing_api_key', 'authentication_error'],
    ['insufficient_balance', 'billing_error'],
    ['model_not_allowed', 'permission_error'],
    ['model_not_found', 'not_found_error'],
    ['request_body_too_large', 'request_too_large'],
    ['rate_limit_exceeded', 'rate_limit_error'],
    ['internal_error', 'api_error'],
    ['upstream_error', 'api_error'],
    ['gateway_overloaded', 'overloaded_error'],
    ['upstream_overloaded', 'overloaded_error'],
    ['upstream_timeout', 'timeout_error'],
    ['idempotency_key_reused', 'invalid_request_error'],
  ] as const)('%s is %s', (code, type) => {
    expect(anthropicErrorType(new GatewayError(code, 'x'))).toBe(type);
  });

  it('words the body, the request-id header and the stream event', () => {
    const err = new GatewayError('model_not_found', 'No such model.');
    expect(ANTHROPIC_ERRORS.body(err, 'req_1')).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'No such model.' }, request_id: 'req_1' });
    expect(ANTHROPIC_ERRORS.headers?.('req_1')).toEqual({ 'request-id': 'req_1' });
    expect(ANTHROPIC_SSE.error(err, 'req_1')).toBe('event: error\ndata: {"type":"error","error":{"type":"not_found_error","message":"No such model."},"request_id":"req_1"}\n\n');
    expect(ANTHROPIC_SSE.frame({ type: 'ping' })).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });
});
