import { checkNativeServable, forwardedBetas, nativeMessagesBody } from './native-request-fields';

const scoped = (value: string) => `scoped(${value})`;

describe('what a native Messages route forwards', () => {
  const raw = {
    model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], system: 'S', stream: true, thinking: { type: 'adaptive' },
    output_config: { effort: 'low' }, metadata: { user_id: 'u', other: 'x' }, made_up: 1, service_tier: 'standard_only',
  };

  it('keeps the allowlisted fields, scopes the end user and drops the rest (the model and stream are the adapter\'s)', () => {
    expect(nativeMessagesBody(raw, scoped)).toEqual({
      max_tokens: 10, messages: raw.messages, system: 'S', thinking: raw.thinking, output_config: raw.output_config,
      metadata: { user_id: 'scoped(u)' }, service_tier: 'standard_only',
    });
  });

  it('sends a token count only what it counts', () => {
    expect(nativeMessagesBody(raw, scoped, true)).toEqual({ messages: raw.messages, system: 'S', thinking: raw.thinking, output_config: raw.output_config });
  });

  it('refuses MCP servers, containers and any service tier but standard_only, by name', () => {
    expect(() => checkNativeServable({ mcp_servers: [] })).toThrow(expect.objectContaining({ code: 'unsupported_parameter', options: { param: 'mcp_servers' } }));
    expect(() => checkNativeServable({ container: 'c' })).toThrow(expect.objectContaining({ options: { param: 'container' } }));
    expect(() => checkNativeServable({ service_tier: 'auto' })).toThrow(expect.objectContaining({ options: { param: 'service_tier' } }));
    expect(() => checkNativeServable({ service_tier: 'standard_only', container: null })).not.toThrow();
  });

  it('forwards betas that change no price, refuses those that do, and drops the unknown', () => {
    expect(forwardedBetas(['interleaved-thinking-2025-05-14, something-new', 'fine-grained-tool-streaming-2025-05-14'])).toEqual(['interleaved-thinking-2025-05-14', 'fine-grained-tool-streaming-2025-05-14']);
    expect(forwardedBetas(undefined)).toEqual([]);
    expect(() => forwardedBetas('context-1m-2025-08-07')).toThrow(expect.objectContaining({ code: 'unsupported_parameter', options: { param: 'anthropic-beta' } }));
    expect(() => forwardedBetas('files-api-2025-04-14')).toThrow(/files-api/);
  });
});
