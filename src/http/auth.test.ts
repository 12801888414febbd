import type { HttpRequest } from './http-types';
import { apiKeyOf } from './auth';

const request = (url: string, headers: Record<string, string | string[]>) => ({ url, headers }) as unknown as HttpRequest;

describe('apiKeyOf', () => {
  it('reads the key from each dialect\'s header, Bearer first', () => {
    expect(apiKeyOf(request('/v1/chat/completions', { authorization: 'Bearer sk-a' }))).toBe('sk-a');
    expect(apiKeyOf(request('/v1/messages', { 'x-api-key': 'sk-b' }))).toBe('sk-b');
    expect(apiKeyOf(request('/v1beta/models/m:generateContent', { 'x-goog-api-key': ' sk-c ' }))).toBe('sk-c');
    expect(apiKeyOf(request('/v1/messages', { authorization: 'Bearer sk-a', 'x-api-key': 'sk-b' }))).toBe('sk-a');
    expect(apiKeyOf(request('/v1/messages', { 'x-api-key': ['sk-d', 'sk-e'] }))).toBe('sk-d');
  });

  it('reads ?key= on the Gemini paths only, where no header carries one', () => {
    expect(apiKeyOf(request('/v1beta/models/m:streamGenerateContent?alt=sse&key=sk-q', {}))).toBe('sk-q');
    expect(apiKeyOf(request('/v1beta/models/m:generateContent?key=sk-q', { 'x-goog-api-key': 'sk-h' }))).toBe('sk-h');
    expect(apiKeyOf(request('/v1/chat/completions?key=sk-q', {}))).toBeUndefined();
    expect(apiKeyOf(request('/v1beta/models/m:generateContent?key=', {}))).toBeUndefined();
  });

  it('finds none in an empty or malformed header', () => {
    expect(apiKeyOf(request('/v1/messages', { 'x-api-key': '  ' }))).toBeUndefined();
    expect(apiKeyOf(request('/v1/messages', { authorization: 'Basic abc' }))).toBeUndefined();
  });
});
