import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAIErrorFromResponse, openAIStreamError } from './openai-errors';
import { UpstreamError } from '../upstream-error';

const recorded = (name: string) => readFileSync(join(__dirname, '../../../test/fixtures/recorded', name), 'utf8');
const envelope = (message: string, type: string, code: string | null, param: string | null = null) => JSON.stringify({ error: { message, type, param, code } });

describe('openAIErrorFromResponse', () => {
  it('the recorded 400 of a reasoning model sent max_tokens: code, type and param kept', () => {
    const err = openAIErrorFromResponse(400, {}, recorded('openai-chat/reasoning-model-legacy-parameter-error.json'));
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toBe("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.");
    expect(err.details).toEqual({ status: 400, retryable: false, retryAfterSeconds: undefined, code: 'unsupported_parameter', type: 'invalid_request_error', param: 'max_tokens' });
  });

  it('the recorded 400 with a null code has no code', () => {
    const err = openAIErrorFromResponse(400, {}, recorded('openai-responses/reasoning-model-temperature-error.json'));
    expect(err.message).toBe("Unsupported parameter: 'temperature' is not supported with this model.");
    expect(err.details).toMatchObject({ code: null, type: 'invalid_request_error', param: 'temperature' });
  });

  it.each([
    [401, 'Incorrect API key provided: sk-abc.', 'invalid_request_error', 'invalid_api_key', false],
    [404, 'The model `gpt-9` does not exist or you do not have access to it.', 'invalid_request_error', 'model_not_found', false],
    [429, 'Rate limit reached for gpt-4.1-mini on tokens per min (TPM).', 'tokens', 'rate_limit_exceeded', true],
    [429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota', true],
    [400, 'Invalid prompt: your prompt was flagged as potentially violating our usage policy.', 'invalid_request_error', 'invalid_prompt', false],
    [409, 'Lock contention', 'invalid_request_error', 'conflict', true],
    [500, 'The server had an error while processing your request.', 'server_error', 'server_error', true],
    [503, 'The engine is currently overloaded, please try again later.', 'server_error', 'overloaded', true],
  ])('%d %s', (status, message, type, code, retryable) => {
    expect(openAIErrorFromResponse(status, {}, envelope(message, type, code))).toMatchObject({
      message,
      details: { status, retryable, code, type, param: null },
    });
  });

  it.each<[Record<string, string | string[] | undefined>, number | undefined]>([
    [{ 'retry-after': '20' }, 20],
    [{ 'retry-after': '0.4' }, 1],
    [{}, undefined],
  ])('keeps Retry-After %j as %s seconds', (headers, seconds) => {
    expect(openAIErrorFromResponse(429, headers, envelope('slow', 'requests', 'rate_limit_exceeded')).details.retryAfterSeconds).toBe(seconds);
  });

  it.each([
    ['a numeric code becomes text', '{"error":{"message":"bad","code":400}}', 'bad', '400'],
    ['an error given as a string', '{"error":"model overloaded"}', 'model overloaded', null],
    ['JSON without an error object', '{"detail":"Not Found"}', '{"detail":"Not Found"}', null],
    ['an HTML page', '<html>502 Bad Gateway</html>', '<html>502 Bad Gateway</html>', null],
    ['an empty body', '', 'upstream answered HTTP 502', null],
    ['an error without a message', '{"error":{"type":"server_error"}}', 'upstream answered HTTP 502', null],
  ])('%s', (_, text, message, code) => {
    const err = openAIErrorFromResponse(502, {}, text);
    expect(err.message).toBe(message);
    expect(err.details.code).toBe(code);
    expect(err.details.retryable).toBe(true);
  });

  it('keeps at most 500 characters of a body that is not JSON', () => {
    expect(openAIErrorFromResponse(500, {}, 'e'.repeat(1200)).message).toBe('e'.repeat(500));
  });

  it('ignores a param that is not text', () => {
    expect(openAIErrorFromResponse(400, {}, '{"error":{"message":"m","param":["a"]}}').details.param).toBeNull();
  });
});

describe('openAIStreamError', () => {
  it('an error payload mid-stream is a 502 that is not retried', () => {
    const err = openAIStreamError({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: 'server_error' } });
    expect(err.message).toBe('The server had an error while processing your request.');
    expect(err.details).toStrictEqual({ status: 502, retryable: false, code: 'server_error', type: 'server_error', cause: 'upstream_stream_error' });
  });

  it.each([[{}], [{ error: 'boom' }], [{ error: { code: 42, type: 7 } }]])('%j gives a generic stream error', (payload) => {
    const err = openAIStreamError(payload);
    expect(err.message).toBe('the upstream reported an error mid-stream');
    expect(err.details).toStrictEqual({ status: 502, retryable: false, code: null, type: null, cause: 'upstream_stream_error' });
  });
});
