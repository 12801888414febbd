import type { UpstreamChatRequest } from '../chat-adapter';
import type { ResolvedProvider } from '../resolved-provider';
import { toOpenAIChatBody } from './openai-request';
import { toXaiChatCall } from './xai-chat-fields';

const breakpoint = { type: 'ephemeral' as const, ttl: '1h' as const };
const request: UpstreamChatRequest = {
  model: 'client-name',
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'Rules.', cache_control: breakpoint }] },
    { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' }, cache_control: breakpoint }] },
  ],
  tools: [{ type: 'function', function: { name: 'lookup' }, cache_control: breakpoint }],
  prompt_cache_key: 'scoped-key',
  prompt_cache_retention: '24h',
  structuredOutputs: true,
  thinking: { enabled: false },
};

describe('toOpenAIChatBody', () => {
  it('forwards the prompt-cache key and retention, and leaves out cache_control and the gateway\'s own fields', () => {
    const body = toOpenAIChatBody(request, 'gpt-4.1-mini', false);
    expect(body).toMatchObject({ model: 'gpt-4.1-mini', prompt_cache_key: 'scoped-key', prompt_cache_retention: '24h', tools: [{ type: 'function', function: { name: 'lookup' } }] });
    expect(JSON.stringify(body)).not.toContain('cache_control');
    for (const field of ['structuredOutputs', 'thinking']) expect(body).not.toHaveProperty(field);
  });
});

describe('toXaiChatCall', () => {
  const provider: ResolvedProvider = { name: 'xai', type: 'xai', baseUrl: 'http://upstream.test/v1', apiKey: 'k', timeoutMs: 1000, headers: { 'x-operator': '1' }, simulated: false };

  it('moves the prompt-cache key to the x-grok-conv-id header and drops the retention', () => {
    const { provider: sent, body } = toXaiChatCall(provider, toOpenAIChatBody(request, 'grok-4', false));
    expect(sent.headers).toEqual({ 'x-operator': '1', 'x-grok-conv-id': 'scoped-key' });
    expect(body).not.toHaveProperty('prompt_cache_key');
    expect(body).not.toHaveProperty('prompt_cache_retention');
    expect(toXaiChatCall(provider, { model: 'grok-4' })).toEqual({ provider, body: { model: 'grok-4' } });
  });
});
