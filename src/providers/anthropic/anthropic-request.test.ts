import type { UpstreamChatRequest } from '../chat-adapter';
import { toAnthropicMessagesBody } from './anthropic-request';

const base: UpstreamChatRequest = { model: 'client-name', max_tokens: 500, messages: [{ role: 'user', content: 'Hi' }] };
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const clockTool = { type: 'function' as const, function: { name: 'get_time' } };

const body = (extra: Partial<UpstreamChatRequest>, stream = false) => toAnthropicMessagesBody({ ...base, ...extra }, 'claude-sonnet-4-5', stream);

describe('toAnthropicMessagesBody', () => {
  it('maps the sampling fields, stop, user and stream', () => {
    expect(body({ temperature: 0.2, top_p: 0.9, top_k: 40, stop: ['END', 'STOP'], user: 'u-7' }, true)).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 500,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END', 'STOP'],
      metadata: { user_id: 'u-7' },
      stream: true,
    });
    expect(body({ stop: 'END' }).stop_sequences).toEqual(['END']);
  });

  it('takes max_completion_tokens over max_tokens, and refuses a call with neither', () => {
    expect(body({ max_completion_tokens: 900 }).max_tokens).toBe(900);
    expect(() => body({ max_tokens: undefined })).toThrow(expect.objectContaining({ name: 'UnsupportedParameterError', param: 'max_tokens' }));
  });

  it('sends the thinking budget the gateway decided, and nothing when thinking is off', () => {
    expect(body({ max_tokens: 4000, thinking: { enabled: true, budgetTokens: 3200 } }).thinking).toEqual({ type: 'enabled', budget_tokens: 3200 });
    expect(body({ thinking: { enabled: false } })).not.toHaveProperty('thinking');
    expect(body({})).not.toHaveProperty('thinking');
  });

  it('sends adaptive thinking with the effort level when the gateway decided a level and no budget (Claude 4.6 and later)', () => {
    const adaptive = body({ max_tokens: 4000, thinking: { enabled: true, effort: 'medium', includeThoughts: true } });
    expect(adaptive.thinking).toEqual({ type: 'adaptive' });
    expect(adaptive.output_config).toEqual({ effort: 'medium' });
    const atDefault = body({ max_tokens: 4000, thinking: { enabled: true } });
    expect(atDefault.thinking).toEqual({ type: 'adaptive' });
    expect(atDefault).not.toHaveProperty('output_config');
    expect(body({ max_tokens: 4000, thinking: { enabled: true, budgetTokens: 2000 } })).not.toHaveProperty('output_config');
  });

  it('describes tools with an object schema, an empty one for a tool without parameters', () => {
    expect(body({ tools: [weatherTool, clockTool] }).tools).toEqual([
      { name: 'get_weather', description: 'Weather now', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
      { name: 'get_time', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it.each([
    ['auto', undefined, { type: 'auto' }],
    ['none', undefined, { type: 'none' }],
    ['required', undefined, { type: 'any' }],
    [{ type: 'function', function: { name: 'get_time' } }, undefined, { type: 'tool', name: 'get_time' }],
    ['required', false, { type: 'any', disable_parallel_tool_use: true }],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }],
    ['none', false, { type: 'none' }],
  ] as const)('maps tool_choice %j with parallel_tool_calls %j', (choice, parallel, expected) => {
    const request: Partial<UpstreamChatRequest> = { tools: [weatherTool, clockTool], tool_choice: choice as UpstreamChatRequest['tool_choice'] };
    if (parallel !== undefined) request.parallel_tool_calls = parallel;
    expect(body(request).tool_choice).toEqual(expected);
  });

  it('sends no tool_choice without tools or without a choice', () => {
    expect(body({ tool_choice: 'none' })).not.toHaveProperty('tool_choice');
    expect(body({ tools: [weatherTool] })).not.toHaveProperty('tool_choice');
  });

  it.each([
    ['n', { n: 2 }],
    ['logprobs', { logprobs: true }],
    ['top_logprobs', { top_logprobs: 3 }],
    ['logit_bias', { logit_bias: { '50256': -100 } }],
    ['presence_penalty', { presence_penalty: 0.5 }],
    ['frequency_penalty', { frequency_penalty: -0.5 }],
    ['seed', { seed: 42 }],
    ['response_format', { response_format: { type: 'json_object' } }],
  ] as const)('refuses %s, which the Messages API cannot express', (param, extra) => {
    expect(() => body(extra as Partial<UpstreamChatRequest>)).toThrow(expect.objectContaining({ name: 'UnsupportedParameterError', param }));
  });

  it('accepts the values of those fields that ask for nothing', () => {
    expect(() => body({ n: 1, logprobs: false, top_logprobs: 0, logit_bias: {}, presence_penalty: 0, frequency_penalty: 0, response_format: { type: 'text' } })).not.toThrow();
  });
});
