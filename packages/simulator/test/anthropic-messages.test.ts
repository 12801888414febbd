import { ANTHROPIC_HEADERS, MODEL, anthropicError, messageJson, postMessages, userTurn } from './anthropic-test-kit';
import { readRecorded, requestLog, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

const send = (body: unknown, headers?: Record<string, string>) => postMessages(simulator.current, body, headers ? { headers } : {});
const message = async (body: unknown) => {
  const response = await send(body);
  expect(response.status).toBe(200);
  return messageJson(response);
};

describe('POST /v1/messages: headers', () => {
  it('needs an x-api-key, answered in Anthropic\'s envelope with the request id', async () => {
    const { 'x-api-key': _key, ...withoutKey } = ANTHROPIC_HEADERS;
    const response = await send(userTurn('Hi'), withoutKey);
    const { status, body } = await anthropicError(response);
    expect(status).toBe(401);
    expect(body).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' }, request_id: expect.stringMatching(/^req_/) });
    expect(response.headers.get('request-id')).toBe(body.request_id);
  });

  it('needs a known anthropic-version', async () => {
    const { 'anthropic-version': _version, ...withoutVersion } = ANTHROPIC_HEADERS;
    expect((await anthropicError(await send(userTurn('Hi'), withoutVersion))).body.error).toEqual({ type: 'invalid_request_error', message: 'anthropic-version: header is required' });
    const unknown = await anthropicError(await send(userTurn('Hi'), { ...ANTHROPIC_HEADERS, 'anthropic-version': '2024-10-22' }));
    expect(unknown).toMatchObject({ status: 400, body: { error: { message: 'anthropic-version: "2024-10-22" is not a valid version' } } });
  });

  it('records the request with the key redacted', async () => {
    await send(userTurn('Logged [sim words=3]'));
    const { requests } = await requestLog(simulator.current, '?limit=1');
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/messages', headers: { 'x-api-key': '[redacted]', 'anthropic-version': '2023-06-01' }, body: userTurn('Logged [sim words=3]') });
  });
});

describe('POST /v1/messages: validation', () => {
  it.each([
    ['max_tokens', { model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }, 'max_tokens: Field required'],
    ['model', { max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }, 'model: Field required'],
    ['messages', { model: MODEL, max_tokens: 10 }, 'messages: Field required'],
  ])('refuses a request without %s', async (_field, body, expected) => {
    expect(await anthropicError(await send(body))).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error', message: expected } } });
  });

  it('wants turns that start with the user and alternate', async () => {
    const assistantFirst = { ...userTurn('x'), messages: [{ role: 'assistant', content: 'Hello' }, { role: 'user', content: 'Hi' }] };
    expect((await anthropicError(await send(assistantFirst))).body.error.message).toBe('messages: first message must use the "user" role');
    const twoUsers = { ...userTurn('x'), messages: [{ role: 'user', content: 'Hi' }, { role: 'user', content: 'Again' }] };
    expect((await anthropicError(await send(twoUsers))).body.error.message).toBe(
      'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row',
    );
    const systemRole = { ...userTurn('x'), messages: [{ role: 'system', content: 'Be brief' }] };
    expect((await anthropicError(await send(systemRole))).body.error.message).toBe("messages.0.role: Input should be 'user' or 'assistant'");
  });

  it('answers malformed JSON with an invalid_request_error', async () => {
    const response = await fetch(`${simulator.current.url}/v1/messages`, { method: 'POST', headers: ANTHROPIC_HEADERS, body: '{"model":' });
    expect(await anthropicError(response)).toMatchObject({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error' } } });
  });
});

describe('POST /v1/messages: answers', () => {
  it('answers with a whole message, deterministically for the same prompt', async () => {
    const body = await message(userTurn('Tell me about caches [sim words=12]'));
    expect(body).toEqual({
      id: expect.stringMatching(/^msg_01[A-Za-z0-9]{22}$/),
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text: expect.any(String) }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: expect.any(Number),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        output_tokens: Math.ceil(body.content[0].text.length / 4),
        output_tokens_details: { thinking_tokens: 0 },
        service_tier: 'standard',
      },
    });
    expect(body.content[0].text.split(' ')).toHaveLength(12);
    expect((await message(userTurn('Tell me about caches [sim latency=1 words=12]'))).content).toEqual(body.content);
  });

  it('stops at a stop sequence and at max_tokens', async () => {
    const plain = (await message(userTurn('Stop me [sim words=60]'))).content[0].text as string;
    const word = plain.split(' ')[10]!;
    const stopped = await message(userTurn('Stop me [sim words=60]', { stop_sequences: [` ${word}`] }));
    expect(stopped).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: ` ${word}`, content: [{ text: plain.slice(0, plain.indexOf(` ${word}`)) }] });
    const cut = await message(userTurn('Stop me [sim words=60]', { max_tokens: 5 }));
    expect(cut).toMatchObject({ stop_reason: 'max_tokens', content: [{ text: plain.slice(0, 20) }], usage: { output_tokens: 5 } });
  });

  const weatherTool = { name: 'get_weather', description: 'Weather now', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

  it('calls a tool when given tools, and answers a tool result in text', async () => {
    const call = await message(userTurn('Weather in Paris?', { tools: [weatherTool] }));
    expect(call).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', id: expect.stringMatching(/^toolu_01/), name: 'get_weather', input: { city: expect.any(String) } }] });
    const toolUse = call.content[0];
    const answer = await message({
      ...userTurn('Weather in Paris?', { tools: [weatherTool] }),
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [toolUse] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18°C and sunny' }] },
      ],
    });
    expect(answer).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: expect.stringMatching(/^The tool returned: 18°C and sunny\. /) }] });
  });

  it('calls no tool with tool_choice none, several with tool_calls=N unless parallel use is disabled', async () => {
    const clock = { name: 'get_time', input_schema: { type: 'object', properties: {} } };
    expect((await message(userTurn('Weather?', { tools: [weatherTool], tool_choice: { type: 'none' } }))).content[0].type).toBe('text');
    const both = await message(userTurn('Weather and time [sim tool_calls=2]', { tools: [weatherTool, clock] }));
    expect(both.content.map((block: { name: string }) => block.name)).toEqual(['get_weather', 'get_time']);
    const one = await message(userTurn('Weather and time [sim tool_calls=2]', { tools: [weatherTool, clock], tool_choice: { type: 'tool', name: 'get_time', disable_parallel_tool_use: true } }));
    expect(one.content).toEqual([{ type: 'tool_use', id: expect.any(String), name: 'get_time', input: {} }]);
  });

  it('replays a recorded body byte for byte', async () => {
    const response = await send(userTurn('Hi [sim replay=thinking]'));
    expect(Buffer.from(await response.arrayBuffer()).equals(readRecorded('anthropic/thinking.json'))).toBe(true);
    const missing = await anthropicError(await send(userTurn('Hi [sim replay=nothing-like-this]')));
    expect(missing.body.error.message).toContain('anthropic/nothing-like-this.json');
  });
});

describe('POST /v1/messages: structured outputs', () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, rain: { type: 'boolean' }, level: { type: 'string', enum: ['low', 'high'] } },
    required: ['city', 'rain', 'level'],
    additionalProperties: false,
  };

  it('answers output_config.format, and the beta output_format, with JSON text that fits the schema', async () => {
    for (const field of [{ output_config: { format: { type: 'json_schema', schema } } }, { output_format: { type: 'json_schema', schema } }]) {
      const answer = await message(userTurn('Weather in Paris?', field));
      expect(answer).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text' }] });
      const value = JSON.parse(answer.content[0].text);
      expect(Object.keys(value).sort()).toEqual(['city', 'level', 'rain']);
      expect({ city: typeof value.city, rain: typeof value.rain, level: ['low', 'high'].includes(value.level) }).toEqual({ city: 'string', rain: 'boolean', level: true });
    }
  });

  it('refuses both forms at once, an open object and the bounds structured outputs do not take', async () => {
    const both = userTurn('Hi', { output_format: { type: 'json_schema', schema }, output_config: { format: { type: 'json_schema', schema } } });
    expect((await anthropicError(await send(both))).status).toBe(400);
    const open = userTurn('Hi', { output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } } } } } });
    expect((await anthropicError(await send(open))).body.error.message).toContain("'additionalProperties' must be explicitly set to false");
    const bounded = { ...schema, properties: { ...schema.properties, count: { type: 'integer', minimum: 1 } } };
    const refused = await anthropicError(await send(userTurn('Hi', { output_config: { format: { type: 'json_schema', schema: bounded } } })));
    expect(refused.body.error.message).toBe("output_config.format.schema.properties.count: the keyword 'minimum' is not supported by structured outputs");
  });

  it('answers a forced tool with input that fits its input_schema, bounds included', async () => {
    const inputSchema = { type: 'object', properties: { count: { type: 'integer', minimum: 3, maximum: 5 }, name: { type: 'string' } }, required: ['count', 'name'] };
    const answer = await message(userTurn('Count', { tools: [{ name: 'answer', input_schema: inputSchema }], tool_choice: { type: 'tool', name: 'answer' } }));
    expect(answer).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', name: 'answer', input: { count: expect.any(Number), name: expect.any(String) } }] });
    expect(answer.content[0].input.count).toBeGreaterThanOrEqual(3);
    expect(answer.content[0].input.count).toBeLessThanOrEqual(5);
  });
});

describe('POST /v1/messages: prompt caching', () => {
  const longSystem = (ttl?: '1h') => [{ type: 'text', text: `You are a careful assistant. ${'Rules. '.repeat(800)}`, cache_control: { type: 'ephemeral', ...(ttl ? { ttl } : {}) } }];

  it('writes a marked prefix on first sight, reads it afterwards, split by lifetime', async () => {
    const system = longSystem();
    const first = (await message(userTurn('First question', { system }))).usage;
    expect(first.cache_creation_input_tokens).toBeGreaterThanOrEqual(1024);
    expect(first).toMatchObject({ cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: first.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 } });
    const second = (await message(userTurn('Second question', { system }))).usage;
    expect(second).toMatchObject({ cache_read_input_tokens: first.cache_creation_input_tokens, cache_creation_input_tokens: 0 });
    // The whole prompt is the same size however much of it came from the cache.
    expect(second.input_tokens + second.cache_read_input_tokens).toBe(first.input_tokens + first.cache_creation_input_tokens);

    const hour = (await message(userTurn('First question', { system: longSystem('1h'), model: 'claude-opus-4-6' }))).usage;
    expect(hour.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: hour.cache_creation_input_tokens });
  });

  it('reads the cached system prompt and writes the conversation marked after it', async () => {
    const system = longSystem();
    const history = [{ type: 'text', text: `Earlier notes ${'note '.repeat(400)}`, cache_control: { type: 'ephemeral', ttl: '1h' } }];
    const warm = (await message({ ...userTurn('x', { system, model: 'claude-haiku-4-5' }) })).usage;
    const extended = (await message({ ...userTurn(history, { system, model: 'claude-haiku-4-5' }) })).usage;
    expect(extended.cache_read_input_tokens).toBe(warm.cache_creation_input_tokens);
    expect(extended.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: expect.any(Number) });
    expect(extended.cache_creation_input_tokens).toBeGreaterThan(400);
  });

  it('caches nothing unmarked or shorter than the minimum', async () => {
    const unmarked = (await message(userTurn('Hi', { system: 'Rules. '.repeat(800) }))).usage;
    const short = (await message(userTurn('Hi', { system: [{ type: 'text', text: 'Short.', cache_control: { type: 'ephemeral' } }] }))).usage;
    for (const usage of [unmarked, short]) expect(usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });
});
