import type OpenAI from 'openai';
import { openaiClient, postJson, ssePayloads, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();
let client: OpenAI;
beforeAll(() => {
  client = openaiClient(simulator.current);
});

const weatherTools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          days: { type: 'integer', minimum: 1, maximum: 7 },
          verbose: { type: 'boolean' },
        },
        required: ['city', 'unit', 'days'],
      },
    },
  },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } } },
];

describe('non-streaming chat completions', () => {
  it('answers with a complete chat.completion object and an x-request-id', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] })
      .withResponse();

    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(data).toEqual({
      id: expect.stringMatching(/^chatcmpl-[A-Za-z0-9]{29}$/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: expect.any(String), refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
      service_tier: 'default',
      system_fingerprint: expect.stringMatching(/^fp_[0-9a-f]{10}$/),
    });
    expect(Math.abs(data.created - Date.now() / 1000)).toBeLessThan(5);
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
    expect(data.usage!.completion_tokens).toBe(Math.ceil(data.choices[0]!.message.content!.length / 4));
  });

  it('gives the same answer to the same question and another to another question', async () => {
    const ask = async (content: string) =>
      (await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] })).choices[0]!.message.content;

    const first = await ask('What is a gateway?');
    expect(await ask('What is a gateway?')).toBe(first);
    expect(await ask('What is a router?')).not.toBe(first);
    expect(first!.split(' ').length).toBeGreaterThanOrEqual(20);
  });

  it('repeats the question and names the model, in plain sentences', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'What is the capital of France? [sim words=30]' }] });
    const content = completion.choices[0]!.message.content!;

    expect(content).toMatch(/^You asked: what is the capital of France\. This is a simulated answer from gpt-4o\. [A-Z]/);
    expect(content.split(' ')).toHaveLength(30);
    expect(content.endsWith('.')).toBe(true);
  });

  it('cuts the answer at max_tokens with finish_reason length', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'Tell me a long story' }] });

    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.choices[0]!.message.content).toHaveLength(20);
    expect(completion.usage!.completion_tokens).toBe(5);
  });

  it('counts an image part as a fixed number of prompt tokens', async () => {
    const text = { type: 'text' as const, text: 'What is in this picture?' };
    const withoutImage = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: [text] }] });
    const withImages = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            text,
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });

    expect(withImages.usage!.prompt_tokens - withoutImage.usage!.prompt_tokens).toBe(2 * 85);
  });

  it('reports a share of a long prompt as cached, in blocks of 128 tokens', async () => {
    const long = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'lorem ipsum '.repeat(1000) }] });
    const cached = long.usage!.prompt_tokens_details!.cached_tokens!;

    expect(long.usage!.prompt_tokens).toBeGreaterThan(1024);
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect(cached % 128).toBe(0);
    expect(cached).toBeLessThan(long.usage!.prompt_tokens);
  });

  it('answers json_object with JSON and json_schema with an object that fits the schema', async () => {
    const asObject = await client.chat.completions.create({
      model: 'gpt-4o',
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'Reply in JSON' }],
    });
    expect(JSON.parse(asObject.choices[0]!.message.content!)).toEqual({ answer: expect.any(String) });

    const asSchema = await client.chat.completions.create({
      model: 'gpt-4o',
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'person',
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 18, maximum: 99 }, tags: { type: 'array', items: { type: 'string' } } },
            required: ['name', 'age', 'tags'],
          },
        },
      },
      messages: [{ role: 'user', content: 'Describe a person' }],
    });
    const person = JSON.parse(asSchema.choices[0]!.message.content!);
    expect(typeof person.name).toBe('string');
    expect(Number.isInteger(person.age) && person.age >= 18 && person.age <= 99).toBe(true);
    expect(person.tags).toEqual([expect.any(String)]);
  });
});

describe('tool calls', () => {
  it('calls the tool the user names, with arguments typed by its schema', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      tools: weatherTools,
      messages: [{ role: 'user', content: 'Use get_weather for Paris' }],
    });
    const choice = completion.choices[0]!;

    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([{ id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/), type: 'function', function: { name: 'get_weather', arguments: expect.any(String) } }]);
    const call = choice.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    const args = JSON.parse(call.function.arguments);
    expect(Object.keys(args).sort()).toEqual(['city', 'days', 'unit']);
    expect(args.city).toBe('Paris');
    expect(args.unit).toBe('celsius');
    expect(Number.isInteger(args.days) && args.days >= 1 && args.days <= 7).toBe(true);
  });

  it('calls the tool a named tool_choice picks, one when it is required, and none when it is none', async () => {
    const named = await client.chat.completions.create({
      model: 'gpt-4o',
      tools: weatherTools,
      tool_choice: { type: 'function', function: { name: 'get_time' } },
      messages: [{ role: 'user', content: 'Use get_weather for Paris' }],
    });
    expect(named.choices[0]!.message.tool_calls?.map((call) => (call as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall).function.name)).toEqual(['get_time']);

    const required = await client.chat.completions.create({ model: 'gpt-4o', tools: weatherTools, tool_choice: 'required', messages: [{ role: 'user', content: 'Hi' }] });
    expect(required.choices[0]!.finish_reason).toBe('tool_calls');

    const none = await client.chat.completions.create({ model: 'gpt-4o', tools: weatherTools, tool_choice: 'none', messages: [{ role: 'user', content: 'Hi' }] });
    expect(none.choices[0]!.finish_reason).toBe('stop');
    expect(none.choices[0]!.message.tool_calls).toBeUndefined();
  });

  it('refuses a tool_choice that names no listed tool', async () => {
    const failure = client.chat.completions.create({
      model: 'gpt-4o',
      tools: weatherTools,
      tool_choice: { type: 'function', function: { name: 'launch_rocket' } },
      messages: [{ role: 'user', content: 'Hi' }],
    });
    await expect(failure).rejects.toMatchObject({ status: 400, param: 'tool_choice' });
  });

  it('answers a tool result with text that mentions it', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      tools: weatherTools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temperature": 21, "sky": "clear"}' },
      ],
    });

    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.choices[0]!.message.content).toContain('{"temperature": 21, "sky": "clear"}');
  });

  it('streams a tool call that the SDK assembles into the same call', async () => {
    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      tools: weatherTools,
      messages: [{ role: 'user', content: 'Use get_weather for Paris' }],
    });
    const final = await stream.finalChatCompletion();
    const call = final.choices[0]!.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;

    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.function.name).toBe('get_weather');
    expect(Object.keys(JSON.parse(call.function.arguments)).sort()).toEqual(['city', 'days', 'unit']);
  });

  it('streams tool calls in fragments: id, type and name first, then arguments only', async () => {
    const response = await postJson(simulator.current, '/v1/chat/completions', {
      model: 'gpt-4o',
      stream: true,
      tools: weatherTools,
      messages: [{ role: 'user', content: 'Use get_weather for Paris [sim tool_calls=2 chunk=8]' }],
    });
    const payloads = ssePayloads(await response.text());
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));
    const deltas = chunks.map((chunk) => chunk.choices[0].delta);

    expect(payloads.at(-1)).toBe('[DONE]');
    expect(deltas[0]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '' } }],
      refusal: null,
    });
    const fragments = deltas.slice(1, -1).flatMap((delta) => delta.tool_calls);
    const headers = fragments.filter((fragment) => 'id' in fragment);
    expect(headers).toEqual([{ index: 1, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_time', arguments: '' } }]);
    for (const fragment of fragments.filter((candidate) => !('id' in candidate))) {
      expect(Object.keys(fragment).sort()).toEqual(['function', 'index']);
      expect(Object.keys(fragment.function)).toEqual(['arguments']);
      expect(fragment.function.arguments.length).toBeLessThanOrEqual(8);
    }
    const joined = (index: number) => fragments.filter((fragment) => fragment.index === index).map((fragment) => fragment.function.arguments).join('');
    expect(JSON.parse(joined(0))).toMatchObject({ city: expect.any(String) });
    expect(JSON.parse(joined(1))).toEqual({ zone: expect.any(String) });
    expect(chunks.at(-1).choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' });
  });
});

describe('streaming chat completions', () => {
  it('streams role, content, finish and usage chunks that share id and created, as the SDK reads them', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Stream me something' }],
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    const whole = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Stream me something' }] });
    const [first, ...rest] = chunks;
    const usageChunk = rest.pop()!;
    const finishChunk = rest.pop()!;

    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(new Set(chunks.map((chunk) => chunk.created)).size).toBe(1);
    expect(first!.choices[0]!.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(rest.map((chunk) => chunk.choices[0]!.delta.content).join('')).toBe(whole.choices[0]!.message.content);
    expect(finishChunk.choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual(whole.usage);
  });

  it('leaves usage out of every chunk when include_usage is not asked, and obfuscation when turned off', async () => {
    const response = await postJson(simulator.current, '/v1/chat/completions', {
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_obfuscation: false },
      messages: [{ role: 'user', content: 'Hello' }],
    });
    const payloads = ssePayloads(await response.text());
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));

    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(payloads.at(-1)).toBe('[DONE]');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    expect(chunks.some((chunk) => 'usage' in chunk || 'obfuscation' in chunk)).toBe(false);
  });
});

describe('reasoning models', () => {
  it('reports reasoning tokens inside completion_tokens, growing with the effort', async () => {
    const reasoning = async (effort: 'low' | 'medium' | 'high') => {
      const completion = await client.chat.completions.create({ model: 'o4-mini', reasoning_effort: effort, messages: [{ role: 'user', content: 'Think' }] });
      const usage = completion.usage!;
      expect(usage.completion_tokens).toBe(Math.ceil(completion.choices[0]!.message.content!.length / 4) + usage.completion_tokens_details!.reasoning_tokens!);
      return usage.completion_tokens_details!.reasoning_tokens!;
    };
    const [low, medium, high] = [await reasoning('low'), await reasoning('medium'), await reasoning('high')];

    expect(low).toBeGreaterThan(0);
    expect(medium).toBeGreaterThan(low);
    expect(high).toBeGreaterThan(medium);
  });

  it('spends max_completion_tokens on reasoning first', async () => {
    const completion = await client.chat.completions.create({ model: 'o3', max_completion_tokens: 100, messages: [{ role: 'user', content: 'Think hard' }] });

    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.choices[0]!.message.content).toBe('');
    expect(completion.usage!.completion_tokens).toBe(100);
    expect(completion.usage!.completion_tokens_details!.reasoning_tokens).toBe(100);
  });

  it('refuses a temperature other than 1', async () => {
    const failure = client.chat.completions.create({ model: 'o3-mini', temperature: 0.5, messages: [{ role: 'user', content: 'Hi' }] });

    await expect(failure).rejects.toMatchObject({
      status: 400,
      error: {
        message: "Unsupported value: 'temperature' does not support 0.5 with this model. Only the default (1) value is supported.",
        type: 'invalid_request_error',
        param: 'temperature',
        code: 'unsupported_value',
      },
    });
    await expect(client.chat.completions.create({ model: 'o3-mini', temperature: 1, messages: [{ role: 'user', content: 'Hi' }] })).resolves.toBeDefined();
  });
});
