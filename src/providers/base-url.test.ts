import { normalizeBaseUrl } from './base-url';

describe('normalizeBaseUrl', () => {
  it.each([
    ['anthropic', 'https://api.anthropic.com', 'https://api.anthropic.com/v1'],
    ['anthropic', 'https://api.anthropic.com/', 'https://api.anthropic.com/v1'],
    ['anthropic', 'https://api.anthropic.com/v1', 'https://api.anthropic.com/v1'],
    ['anthropic', 'https://api.anthropic.com/v1/', 'https://api.anthropic.com/v1'],
    ['anthropic', 'https://proxy.example/anthropic', 'https://proxy.example/anthropic/v1'],
    ['gemini', 'https://generativelanguage.googleapis.com', 'https://generativelanguage.googleapis.com/v1beta'],
    ['gemini', 'https://generativelanguage.googleapis.com/', 'https://generativelanguage.googleapis.com/v1beta'],
    ['gemini', 'https://generativelanguage.googleapis.com/v1beta/', 'https://generativelanguage.googleapis.com/v1beta'],
    ['gemini', 'https://generativelanguage.googleapis.com/v1', 'https://generativelanguage.googleapis.com/v1'],
    ['gemini', 'https://generativelanguage.googleapis.com/v1alpha', 'https://generativelanguage.googleapis.com/v1alpha'],
    ['openai', 'https://api.openai.com', 'https://api.openai.com/v1'],
    ['openai', 'https://api.openai.com/v1/', 'https://api.openai.com/v1'],
    ['openai', 'https://example.openai.azure.com/openai/v1', 'https://example.openai.azure.com/openai/v1'],
    ['openai', 'https://compat.example/api/v3/', 'https://compat.example/api/v3'],
    ['xai', 'https://api.x.ai/', 'https://api.x.ai/v1'],
    ['openai', 'http://127.0.0.1:9000', 'http://127.0.0.1:9000/v1'],
  ] as const)('%s %s -> %s', (type, given, expected) => {
    expect(normalizeBaseUrl(type, given)).toBe(expected);
  });
});
