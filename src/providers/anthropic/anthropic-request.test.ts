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

  it('keeps a tool\'s cache_control and sends no OpenAI prompt-cache field', () => {
    const breakpoint = { type: 'ephemeral' as const, ttl: '1h' as const };
    const sent = body({ tools: [{ ...weatherTool, cache_control: breakpoint }, clockTool], prompt_cache_key: 'k', prompt_cache_retention: '24h', structuredOutputs: true });
    expect((sent.tools as object[]).map((tool) => (tool as { cache_control?: unknown }).cache_control)).toEqual([breakpoint, undefined]);
    for (const field of ['prompt_cache_key', 'prompt_cache_retention', 'structuredOutputs']) expect(sent).not.toHaveProperty(field);
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
  ] as const)('refuses %s, which the Messages API cannot express', (param, extra) => {
    expect(() => body(extra as Partial<UpstreamChatRequest>)).toThrow(expect.objectContaining({ name: 'UnsupportedParameterError', param }));
  });

  it('accepts the values of those fields that ask for nothing', () => {
    expect(() => body({ n: 1, logprobs: false, top_logprobs: 0, logit_bias: {}, presence_penalty: 0, frequency_penalty: 0, response_format: { type: 'text' } })).not.toThrow();
  });
});

describe('toAnthropicMessagesBody: response_format', () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, when: { type: 'string', format: 'date' }, tags: { type: 'array', items: { $ref: '#/$defs/tag' } } },
    required: ['city', 'when', 'tags'],
    additionalProperties: false,
    $defs: { tag: { type: 'string', enum: ['a', 'b'] } },
  };
  const jsonSchema = (extra: Record<string, unknown> = {}) => ({ type: 'json_schema' as const, json_schema: { name: 'forecast', schema: { ...schema, ...extra }, strict: true } });

  it('sends the schema as output_config.format on a model with structured outputs, beside the effort level and the client\'s tools', () => {
    const sent = body({ structuredOutputs: true, response_format: jsonSchema(), tools: [weatherTool], max_tokens: 4000, thinking: { enabled: true, effort: 'high' } });
    expect(sent.output_config).toEqual({ effort: 'high', format: { type: 'json_schema', schema } });
    expect(sent.tools).toEqual([expect.objectContaining({ name: 'get_weather' })]);
    expect(sent).not.toHaveProperty('tool_choice');
    expect(sent).not.toHaveProperty('response_format');
    expect(sent).not.toHaveProperty('output_format');
  });

  it('forces a tool named after the schema on a model without structured outputs', () => {
    const sent = body({ response_format: { type: 'json_schema', json_schema: { name: 'forecast', description: 'The forecast', schema } } });
    expect(sent.tools).toEqual([{ name: 'forecast', description: 'The forecast', input_schema: schema }]);
    expect(sent.tool_choice).toEqual({ type: 'tool', name: 'forecast' });
    expect(sent).not.toHaveProperty('output_config');
  });

  it.each([
    ['a numeric bound', { properties: { ...schema.properties, count: { type: 'integer', minimum: 1 } } }],
    ['an open object', { additionalProperties: true }],
    ['oneOf', { oneOf: [{ required: ['city'] }] }],
    ['an unknown string format', { properties: { ...schema.properties, when: { type: 'string', format: 'iso-week' } } }],
    ['a recursive reference', { $defs: { tag: { type: 'object', properties: { child: { $ref: '#/$defs/tag' } }, additionalProperties: false } } }],
    ['minItems above 1', { properties: { ...schema.properties, tags: { type: 'array', items: { type: 'string' }, minItems: 2 } } }],
  ])('forces the tool for a schema with %s, which structured outputs refuse', (_name, extra) => {
    const sent = body({ structuredOutputs: true, response_format: jsonSchema(extra) });
    expect(sent.tool_choice).toEqual({ type: 'tool', name: 'forecast' });
    expect(sent).not.toHaveProperty('output_config');
  });

  it('answers json_object through a forced tool taking any object, with or without structured outputs', () => {
    for (const structuredOutputs of [false, true]) {
      const sent = body({ structuredOutputs, response_format: { type: 'json_object' } });
      expect(sent.tools).toEqual([{ name: 'json_object', description: expect.any(String), input_schema: { type: 'object' } }]);
      expect(sent.tool_choice).toEqual({ type: 'tool', name: 'json_object' });
    }
  });

  it.each([
    ['thinking on', { thinking: { enabled: true, budgetTokens: 2000 }, max_tokens: 4000 }, 'response_format', 'while thinking is on'],
    ['the client\'s tools', { tools: [weatherTool] }, 'tools', 'send "tools" or "response_format", not both'],
  ])('refuses the forced tool together with %s, naming the field', (_name, extra, param, words) => {
    const attempt = () => body({ response_format: jsonSchema(), ...(extra as Partial<UpstreamChatRequest>) });
    expect(attempt).toThrow(expect.objectContaining({ name: 'UnsupportedParameterError', param }));
    expect(attempt).toThrow(words);
  });

  it('refuses a forced tool whose schema is not an object at its root', () => {
    const array = { type: 'json_schema' as const, json_schema: { name: 'list', schema: { type: 'array', items: { type: 'string' } } } };
    expect(() => body({ response_format: array })).toThrow(expect.objectContaining({ param: 'response_format' }));
    expect(body({ structuredOutputs: true, response_format: array }).output_config).toEqual({ format: { type: 'json_schema', schema: array.json_schema.schema } });
  });
});
