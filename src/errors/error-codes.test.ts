import { ERROR_CODES, TASK_ERROR_CODES, errorType, type ErrorCode, type ErrorType } from './error-codes';
import { GatewayError } from './gateway-error';

const codes = Object.keys(ERROR_CODES) as ErrorCode[];

describe('error codes', () => {
  it.each<[ErrorCode, number, ErrorType]>([
    // by status
    ['invalid_json', 400, 'invalid_request_error'],
    ['max_tokens_out_of_range', 400, 'invalid_request_error'],
    ['missing_api_key', 401, 'authentication_error'],
    ['invalid_admin_token', 401, 'authentication_error'],
    ['model_not_allowed', 403, 'permission_error'],
    ['admin_disabled', 403, 'permission_error'],
    ['model_not_found', 404, 'not_found_error'],
    ['usage_record_not_found', 404, 'not_found_error'],
    ['method_not_allowed', 405, 'invalid_request_error'],
    ['video_not_ready', 409, 'invalid_request_error'],
    ['request_body_too_large', 413, 'invalid_request_error'],
    ['unsupported_media_type', 415, 'invalid_request_error'],
    ['internal_error', 500, 'server_error'],
    ['provider_not_supported', 501, 'server_error'],
    ['gateway_overloaded', 503, 'overloaded_error'],
    ['gateway_shutting_down', 503, 'overloaded_error'],
    // overrides
    ['upstream_rate_limited', 429, 'rate_limit_error'],
    ['upstream_error', 502, 'upstream_error'],
    ['upstream_auth_failed', 502, 'upstream_error'],
    ['upstream_quota_exhausted', 502, 'upstream_error'],
    ['upstream_overloaded', 503, 'upstream_error'],
    ['upstream_timeout', 504, 'upstream_error'],
  ])('%s is %d %s', (code, status, type) => {
    expect(ERROR_CODES[code].status).toBe(status);
    expect(errorType(code)).toBe(type);
  });

  it.each(codes)('%s has an HTTP error status and a meaning', (code) => {
    const spec = ERROR_CODES[code];
    expect(Number.isInteger(spec.status)).toBe(true);
    expect(spec.status).toBeGreaterThanOrEqual(400);
    expect(spec.status).toBeLessThanOrEqual(599);
    expect(spec.meaning.trim().length).toBeGreaterThan(0);
  });

  it('every code is snake_case', () => {
    expect(codes.filter((code) => !/^[a-z][a-z0-9_]*$/.test(code))).toEqual([]);
  });

  it.each(Object.entries(TASK_ERROR_CODES))('task error %s has a meaning', (code, meaning) => {
    expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(meaning.trim().length).toBeGreaterThan(0);
  });

  it('the task error codes include every code the video service and adapters write', () => {
    expect(Object.keys(TASK_ERROR_CODES)).toEqual(expect.arrayContaining(['video_generation_failed', 'upstream_error', 'submission_failed', 'submission_interrupted', 'generation_timeout', 'expired']));
  });

  describe('GatewayError', () => {
    it('takes status and type from the registry, and the registry code as public code', () => {
      const err = new GatewayError('model_not_allowed', 'no', { param: 'model' });
      expect({ status: err.status, type: err.type, code: err.code, registryCode: err.registryCode, name: err.name }).toEqual({
        status: 403, type: 'permission_error', code: 'model_not_allowed', registryCode: 'model_not_allowed', name: 'GatewayError',
      });
    });

    it('an upstream code replaces the public code but not the status or type', () => {
      const err = new GatewayError('upstream_rate_limited', 'slow', { upstreamCode: 'rate_limit_exceeded' });
      expect({ status: err.status, type: err.type, code: err.code, registryCode: err.registryCode }).toEqual({
        status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', registryCode: 'upstream_rate_limited',
      });
    });
  });
});
