import { anthropicErrorFromResponse, anthropicStreamError, malformedAnthropicAnswer } from './anthropic-errors';
import { UpstreamError } from '../upstream-error';

/** Anthropic's error envelope, as its API sends it. */
const envelope = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' });

describe('anthropic errors', () => {
  describe('anthropicErrorFromResponse', () => {
    it.each([
      [400, 'invalid_request_error', 'max_tokens: Field required', false],
      [401, 'authentication_error', 'invalid x-api-key', false],
      [402, 'billing_error', 'Your credit balance is too low', false],
      [403, 'permission_error', 'Your API key does not have permission to use the specified resource.', false],
      [404, 'not_found_error', 'model: claude-nonexistent', false],
      [413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.', false],
      [429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', true],
      [500, 'api_error', 'Internal server error', true],
      [504, 'timeout_error', 'Request timed out', true],
      [529, 'overloaded_error', 'Overloaded', true],
    ])('%d %s: code and type are the error type, retryable %s', (status, type, message, retryable) => {
      const err = anthropicErrorFromResponse(status, {}, envelope(type, message));
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err.message).toBe(message);
      expect(err.details).toEqual({ status, retryable, retryAfterSeconds: undefined, code: type, type });
    });

    it.each<[Record<string, string | string[] | undefined>, number | undefined]>([
      [{ 'retry-after': '30' }, 30],
      [{ 'retry-after': '1.2' }, 2],
      [{ 'retry-after': ['7', '9'] }, 7],
      [{ 'retry-after': 'soon' }, undefined],
      [{}, undefined],
    ])('keeps Retry-After %j as %s seconds', (headers, seconds) => {
      expect(anthropicErrorFromResponse(429, headers, envelope('rate_limit_error', 'slow down')).details.retryAfterSeconds).toBe(seconds);
    });

    it('reads an HTTP-date Retry-After as seconds from now', () => {
      jest.useFakeTimers({ now: Date.UTC(2025, 0, 1, 0, 0, 0) });
      try {
        const at = (date: string) => anthropicErrorFromResponse(429, { 'retry-after': date }, envelope('rate_limit_error', 'x')).details.retryAfterSeconds;
        expect(at('Wed, 01 Jan 2025 00:00:10 GMT')).toBe(10);
        expect(at('Tue, 31 Dec 2024 23:59:00 GMT')).toBe(0);
      } finally {
        jest.useRealTimers();
      }
    });

    it.each([
      ['an HTML page from a proxy', 502, '<html><body>Bad Gateway</body></html>', '<html><body>Bad Gateway</body></html>', true],
      ['JSON of another shape', 500, '{"message":"boom"}', '{"message":"boom"}', true],
      ['an empty body', 503, '', 'upstream answered HTTP 503', true],
      ['an error without a message', 400, JSON.stringify({ type: 'error', error: { type: 'invalid_request_error' } }), JSON.stringify({ type: 'error', error: { type: 'invalid_request_error' } }), false],
    ])('falls back on the status and body for %s', (_, status, body, message, retryable) => {
      const err = anthropicErrorFromResponse(status, {}, body);
      expect(err.message).toBe(message);
      expect(err.details.status).toBe(status);
      expect(err.details.retryable).toBe(retryable);
    });

    it('has no code when the body is not the Anthropic envelope', () => {
      expect(anthropicErrorFromResponse(502, {}, '<html></html>').details).toMatchObject({ code: null, type: null });
    });

    it('keeps at most 500 characters of a body that is not an envelope', () => {
      expect(anthropicErrorFromResponse(500, {}, 'x'.repeat(2000)).message).toBe('x'.repeat(500));
    });
  });

  describe('anthropicStreamError', () => {
    it.each([
      ['overloaded_error', 529, true],
      ['rate_limit_error', 429, true],
      ['api_error', 500, true],
      ['invalid_request_error', 400, false],
      ['permission_error', 403, false],
      ['something_new', 500, true],
    ])('an in-stream %s takes status %d, retryable %s', (type, status, retryable) => {
      const err = anthropicStreamError({ type: 'error', error: { type, message: 'Overloaded' } });
      expect(err.message).toBe('Overloaded');
      expect(err.details).toEqual({ status, retryable, code: type, type, cause: 'upstream_stream_error' });
    });

    it('has a message when the event has none', () => {
      expect(anthropicStreamError({ type: 'error', error: { type: 'api_error', message: null } }).message).toBe('the upstream reported an error mid-stream');
    });
  });

  it('malformedAnthropicAnswer is a retryable 502 with a bounded detail', () => {
    const err = malformedAnthropicAnswer('y'.repeat(1000));
    expect(err.details).toEqual({ status: 502, retryable: true });
    expect(err.message).toBe(`the upstream answer does not have the Anthropic Messages shape: ${'y'.repeat(300)}`);
  });
});
