import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { GEMINI_SSE, googleRpcStatus } from './google-rpc-status';

describe('gateway errors as google.rpc.Status', () => {
  it('keeps the gateway\'s status and message, names the RPC code, and says the rest in an ErrorInfo', () => {
    expect(googleRpcStatus(Errors.validation('contents', 'is required.'), 'req_1')).toEqual({
      error: {
        code: 400, message: '"contents" is required.', status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INVALID_PARAMETER', domain: 'model-gateway', metadata: { request_id: 'req_1', code: 'invalid_parameter', param: 'contents' } }],
      },
    });
  });

  it('gives a bad key Google\'s reason, and a rate limit its RetryInfo', () => {
    expect(googleRpcStatus(Errors.invalidApiKey(), 'req_2').error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED', details: [{ reason: 'API_KEY_INVALID' }] });
    const limited = googleRpcStatus(new GatewayError('rate_limit_exceeded', 'slow down', { retryAfterSeconds: 7 }), 'req_3').error;
    expect(limited).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(limited.details[1]).toEqual({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' });
    expect(googleRpcStatus(Errors.modelNotFound('x'), 'r').error.status).toBe('NOT_FOUND');
    expect(googleRpcStatus(Errors.internal(), 'r').error.status).toBe('INTERNAL');
  });

  it('ends a failed stream with one data event holding the status, and nothing after', () => {
    const event = GEMINI_SSE.error(Errors.internal(), 'req_4');
    expect(event.startsWith('data: {"error":{"code":500')).toBe(true);
    expect(event.endsWith('\r\n\r\n')).toBe(true);
    expect(GEMINI_SSE.end).toBe('');
  });
});
