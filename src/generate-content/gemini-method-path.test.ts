import type { HttpRequest } from '../http/http-types';
import { geminiCallOf, modelPathOf } from './gemini-method-path';

const request = (url: string, method = 'POST') => ({ url, method }) as unknown as HttpRequest;

describe('the Gemini paths', () => {
  it('read the model up to the last colon: catalog ids may hold dots, slashes and colons', () => {
    expect(modelPathOf(request('/v1beta/models/gemini-2.5-flash:generateContent'))).toEqual({ model: 'gemini-2.5-flash', method: 'generateContent' });
    expect(modelPathOf(request('/v1beta/models/vendor/model:tag:streamGenerateContent?alt=sse'))).toEqual({ model: 'vendor/model:tag', method: 'streamGenerateContent' });
    expect(modelPathOf(request('/v1beta/models/models/gpt-4.1-mini:countTokens'))).toEqual({ model: 'gpt-4.1-mini', method: 'countTokens' });
    expect(modelPathOf(request('/v1beta/models/a%2Fb%3Ac:embedContent'))).toEqual({ model: 'a/b:c', method: 'embedContent' });
    expect(modelPathOf(request('/v1beta/models/claude-haiku-4-5', 'GET'))).toEqual({ model: 'claude-haiku-4-5', method: undefined });
  });

  it('name each method\'s endpoint with the model left out, and what the limits count it as', () => {
    expect(geminiCallOf(request('/v1beta/models/m:streamGenerateContent?alt=sse'))).toEqual({ endpoint: '/v1beta/models/{model}:streamGenerateContent', limited: 'generate_content', model: 'm', streamed: true });
    expect(geminiCallOf(request('/v1beta/models/m:batchEmbedContents'))).toMatchObject({ endpoint: '/v1beta/models/{model}:batchEmbedContents', limited: 'embed_content', streamed: false });
    expect(geminiCallOf(request('/v1beta/models/m:countTokens'))).toMatchObject({ limited: 'count_tokens' });
  });

  it('refuse a method they do not serve, a missing model and a malformed escape', () => {
    expect(() => geminiCallOf(request('/v1beta/models/m:foo'))).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => geminiCallOf(request('/v1beta/models/m'))).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => geminiCallOf(request('/v1beta/models/:generateContent'))).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => geminiCallOf(request('/v1beta/models/%E0%A4%A:generateContent'))).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});
