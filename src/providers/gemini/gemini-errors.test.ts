import { mapUpstreamError } from '../../model-call/to-gateway-error';
import { UpstreamError } from '../upstream-error';
import { generateContentResponseSchema } from './gemini-api';
import { geminiErrorFromResponse, geminiStreamError, malformedGeminiAnswer, malformedGeminiWire, promptBlockedError } from './gemini-errors';

/** Google's error envelope, as the Gemini API sends it. */
const envelope = (code: number, status: string, message: string, details: unknown[] = []) => ({ error: { code, message, status, details } });
const body = (code: number, status: string, message: string, details: unknown[] = []) => JSON.stringify(envelope(code, status, message, details));
const retryInfo = (retryDelay: string) => ({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay });
const quotaFailure = {
  '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
  violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
};
const apiKeyInvalid = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } };
const localizedMessage = { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' };

describe('gemini errors', () => {
  describe('geminiErrorFromResponse', () => {
    it.each([
      [400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified', false],
      [400, 'FAILED_PRECONDITION', 'User location is not supported for the API use.', false],
      [403, 'PERMISSION_DENIED', 'Method doesn\'t allow unregistered callers.', false],
      [404, 'NOT_FOUND', 'models/gemini-9 is not found for API version v1beta', false],
      [429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).', true],
      [500, 'INTERNAL', 'An internal error has occurred.', true],
      [503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.', true],
      [504, 'DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.', true],
    ])('%d %s: the status name is the code, retryable %s', (status, name, message, retryable) => {
      const err = geminiErrorFromResponse(status, {}, body(status, name, message));
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err.message).toBe(message);
      expect(err.details).toStrictEqual({ status, retryable, code: name, type: null, param: null });
    });

    it('a bad API key, a 400 INVALID_ARGUMENT with the ErrorInfo reason API_KEY_INVALID, is a refused credential worth another route', () => {
      const err = geminiErrorFromResponse(400, {}, body(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [apiKeyInvalid, localizedMessage]));
      expect(err.message).toBe('API key not valid. Please pass a valid API key.');
      expect(err.details).toStrictEqual({ status: 400, retryable: true, code: 'API_KEY_INVALID', type: null, param: null, cause: 'credential_refused' });
      expect(mapUpstreamError(err)).toMatchObject({
        status: 502,
        code: 'upstream_auth_failed',
        message: "The gateway's credential for the upstream was refused. This is an operator problem; report the request_id.",
        options: { details: { upstream_status: 400, upstream_code: 'API_KEY_INVALID' } },
      });
    });

    it.each([
      ['another ErrorInfo reason', [{ ...apiKeyInvalid, reason: 'SERVICE_DISABLED' }]],
      ['the reason on a detail of another type', [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', reason: 'API_KEY_INVALID' }]],
      ['no details', []],
    ])('a 400 with %s stays the client\'s invalid request', (_, details) => {
      const err = geminiErrorFromResponse(400, {}, body(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', details));
      expect(err.details).toStrictEqual({ status: 400, retryable: false, code: 'INVALID_ARGUMENT', type: null, param: null });
      expect(mapUpstreamError(err)).toMatchObject({ status: 400, registryCode: 'upstream_invalid_request', code: 'INVALID_ARGUMENT' });
    });

    it.each<[string, Record<string, string | string[] | undefined>, unknown[], number | undefined]>([
      ['RetryInfo in whole seconds', {}, [quotaFailure, retryInfo('7s')], 7],
      ['RetryInfo in fractional seconds, rounded up', {}, [retryInfo('0.5s')], 1],
      ['RetryInfo of 41.3s', {}, [retryInfo('41.3s')], 42],
      ['a Retry-After header over RetryInfo', { 'retry-after': '3' }, [retryInfo('30s')], 3],
      ['a RetryInfo delay that is not a Duration', {}, [retryInfo('7')], undefined],
      ['no RetryInfo', {}, [quotaFailure], undefined],
    ])('a rate limit takes its wait from %s', (_, headers, details, seconds) => {
      const err = geminiErrorFromResponse(429, headers, body(429, 'RESOURCE_EXHAUSTED', 'quota', details));
      expect(err.details.retryAfterSeconds).toBe(seconds);
      if (seconds === undefined) expect(err.details).not.toHaveProperty('retryAfterSeconds');
    });

    it('reads the envelope from an array, as the non-SSE stream endpoint sends it', () => {
      const err = geminiErrorFromResponse(429, {}, JSON.stringify([envelope(429, 'RESOURCE_EXHAUSTED', 'slow down', [retryInfo('2s')])]));
      expect(err.message).toBe('slow down');
      expect(err.details).toMatchObject({ code: 'RESOURCE_EXHAUSTED', retryAfterSeconds: 2 });
    });

    it.each([
      ['an HTML page', 502, '<html>Bad Gateway</html>', '<html>Bad Gateway</html>', true],
      ['an empty body', 503, '', 'upstream answered HTTP 503', true],
      ['a blank body', 500, '  \n', 'upstream answered HTTP 500', true],
      ['JSON of another shape', 400, '{"oops":1}', '{"oops":1}', false],
    ])('falls back on the status and body for %s', (_, status, text, message, retryable) => {
      const err = geminiErrorFromResponse(status, {}, text);
      expect(err.message).toBe(message);
      expect(err.details).toStrictEqual({ status, retryable, code: null, type: null, param: null });
    });

    it('keeps at most 500 characters of a body that is not an envelope', () => {
      expect(geminiErrorFromResponse(500, {}, 'z'.repeat(900)).message).toBe('z'.repeat(500));
    });
  });

  describe('geminiStreamError', () => {
    it('an error payload mid-stream is a 502 that is not retried, with the status name as code', () => {
      const err = geminiStreamError(envelope(500, 'INTERNAL', 'An internal error has occurred.'));
      expect(err.message).toBe('An internal error has occurred.');
      expect(err.details).toStrictEqual({ status: 502, retryable: false, code: 'INTERNAL', cause: 'upstream_stream_error' });
    });

    it.each([[{ error: 'boom' }], [{ error: {} }], [null]])('a payload %j of another shape still gives a stream error', (payload) => {
      const err = geminiStreamError(payload);
      expect(err.message).toBe('the upstream reported an error mid-stream');
      expect(err.details).toStrictEqual({ status: 502, retryable: false, code: null, cause: 'upstream_stream_error' });
    });
  });

  it.each(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST'])('a prompt blocked for %s is a 400 the client must fix', (reason) => {
    const err = promptBlockedError(reason);
    expect(err.message).toBe(`Gemini blocked the prompt (block reason ${reason}).`);
    expect(err.details).toStrictEqual({ status: 400, retryable: false, code: reason, type: 'prompt_blocked' });
  });

  it('malformedGeminiAnswer is a retryable 502 with a bounded detail, saying whether an answer or a stream chunk was unreadable', () => {
    const err = malformedGeminiAnswer('q'.repeat(400));
    expect(err.details).toStrictEqual({ status: 502, retryable: true, cause: 'malformed_answer' });
    expect(err.message).toBe(`Gemini sent an answer the gateway cannot read: ${'q'.repeat(300)}`);
    expect(malformedGeminiAnswer('candidates.0.index: bad', 'stream chunk').message).toBe('Gemini sent a stream chunk the gateway cannot read: candidates.0.index: bad');
  });

  it('names the first field that fails the wire schema by its path', () => {
    const parsed = generateContentResponseSchema.safeParse({ candidates: [{ content: { parts: [{ text: 'ok' }, { functionCall: { partialArgs: 5 } }] } }] });
    expect(parsed.success).toBe(false);
    const err = malformedGeminiWire(parsed.error!, 'stream chunk');
    expect(err.message).toBe('Gemini sent a stream chunk the gateway cannot read: candidates.0.content.parts.1.functionCall.partialArgs: Invalid input: expected array, received number');
    expect(err.details.cause).toBe('malformed_answer');
  });
});
