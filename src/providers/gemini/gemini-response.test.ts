import { UpstreamError } from '../upstream-error';
import { convertGeminiUsage } from './convert-gemini-usage';
import { geminiErrorFromResponse, geminiStreamError } from './gemini-errors';
import { readGeminiAnswer, toChatCompletion } from './gemini-response';
import { GeminiStreamState } from './gemini-stream';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';

describe('finish reasons', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', true, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['BLOCKLIST', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['SPII', false, 'content_filter'],
    ['IMAGE_SAFETY', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'stop'],
    ['OTHER', false, 'stop'],
  ] as const)('maps %s (calls: %s) to %s', (reason, calledFunctions, expected) => {
    expect(mapGeminiFinishReason(reason, calledFunctions)).toBe(expected);
  });
});

describe('usage', () => {
  it('counts cached and tool-use prompt tokens as input and thinking as output, keeping the raw object', () => {
    const raw = { promptTokenCount: 5000, cachedContentTokenCount: 2048, toolUsePromptTokenCount: 30, candidatesTokenCount: 40, thoughtsTokenCount: 300, totalTokenCount: 5370 };
    expect(convertGeminiUsage(raw)).toEqual({
      inputTokens: 5030, outputTokens: 340, reasoningTokens: 300, cacheReadTokens: 2048, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'gemini', raw,
    });
  });

  it('reads counts proto3 JSON left out as zero', () => {
    expect(convertGeminiUsage({ promptTokenCount: 12, totalTokenCount: 12 })).toMatchObject({ inputTokens: 12, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0 });
  });
});

describe('answers', () => {
  it('reads thought parts as reasoning_content and gives one choice per candidate', () => {
    const wire = readGeminiAnswer({
      candidates: [
        { content: { parts: [{ text: '**Plan**', thought: true }, { text: 'Answer A' }], role: 'model' }, finishReason: 'STOP', index: 0 },
        { content: { role: 'model' }, finishReason: 'MAX_TOKENS', index: 1 },
      ],
      modelVersion: 'gemini-2.5-flash',
    });
    const completion = toChatCompletion(wire, 'gemini-2.5-flash');
    expect(completion.id).toMatch(/^gemini-/);
    expect(completion.choices).toEqual([
      { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Answer A', reasoning_content: '**Plan**' } },
      { index: 1, finish_reason: 'length', message: { role: 'assistant', content: '' } },
    ]);
  });

  it('refuses a blocked prompt as a 400 that names the block reason, whole or streamed', () => {
    const blocked = readGeminiAnswer({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 8 } });
    for (const attempt of [() => toChatCompletion(blocked, 'm'), () => new GeminiStreamState('m').toChunks(blocked)]) {
      const error = (() => {
        try {
          attempt();
        } catch (e) {
          return e as UpstreamError;
        }
        throw new Error('expected a refusal');
      })();
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error.message).toContain('PROHIBITED_CONTENT');
      expect(error.details).toMatchObject({ status: 400, retryable: false, code: 'PROHIBITED_CONTENT' });
    }
  });

  it('treats an answer without candidates or block reason as malformed', () => {
    expect(() => toChatCompletion(readGeminiAnswer({}), 'm')).toThrow(expect.objectContaining({ details: expect.objectContaining({ status: 502, retryable: true }) }));
  });

  it('numbers tool calls per candidate across stream chunks and is complete only when every candidate finished', () => {
    const state = new GeminiStreamState('gemini-2.5-flash');
    const call = (name: string) => ({ functionCall: { name, args: {} } });
    state.toChunks(readGeminiAnswer({ candidates: [{ content: { parts: [call('a')] }, index: 0 }, { content: { parts: [call('b')] }, index: 1 }] }));
    const later = state.toChunks(readGeminiAnswer({ candidates: [{ content: { parts: [call('c')] }, finishReason: 'STOP', index: 0 }] }));
    expect(later.map((chunk) => chunk.choices[0])).toEqual([
      { index: 0, delta: { tool_calls: [{ index: 1, id: expect.any(String), type: 'function', function: { name: 'c', arguments: '{}' } }] }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'tool_calls' },
    ]);
    expect(state.complete).toBe(false);
    state.toChunks(readGeminiAnswer({ candidates: [{ finishReason: 'STOP', index: 1 }] }));
    expect(state.complete).toBe(true);
  });
});

describe('errors', () => {
  const envelope = (error: object) => JSON.stringify({ error });

  it('takes the wait from RetryInfo, rounding a fractional delay up', () => {
    const body = envelope({
      code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7.2s' }],
    });
    const error = geminiErrorFromResponse(429, {}, body);
    expect(error.message).toBe('Quota exceeded');
    expect(error.details).toEqual({ status: 429, retryable: true, retryAfterSeconds: 8, code: 'RESOURCE_EXHAUSTED', type: null, param: null });
  });

  it('prefers a Retry-After header, and reads the array body of the non-SSE stream endpoint', () => {
    const body = `[${envelope({ code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '30s' }] })}]`;
    expect(geminiErrorFromResponse(503, { 'retry-after': '4' }, body).details).toMatchObject({ status: 503, retryable: true, retryAfterSeconds: 4, code: 'UNAVAILABLE' });
  });

  it('keeps a body that is not Google JSON as the message', () => {
    const error = geminiErrorFromResponse(502, {}, '<html>Bad Gateway</html>');
    expect(error.message).toBe('<html>Bad Gateway</html>');
    expect(error.details).toMatchObject({ status: 502, retryable: true, code: null });
    expect(geminiErrorFromResponse(404, {}, '').message).toBe('upstream answered HTTP 404');
  });

  it('makes an in-stream error payload a non-retryable upstream_stream_error', () => {
    const error = geminiStreamError({ error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } });
    expect(error.message).toBe('An internal error has occurred.');
    expect(error.details).toEqual({ status: 502, retryable: false, code: 'INTERNAL', cause: 'upstream_stream_error' });
  });
});
