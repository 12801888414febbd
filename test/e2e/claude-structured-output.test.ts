import OpenAI from 'openai';
import { z } from 'zod';
import { simulatorRequests, startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * `response_format` on Claude models of the default catalog, driven with
 * the openai SDK: a schema within what Anthropic's structured outputs take
 * goes upstream as `output_config.format`; one beyond it (a numeric bound)
 * and `json_object` go as a forced tool whose input comes back as the
 * content. Either way the client gets content that fits its schema, whole
 * or streamed, on chat and through the Responses bridge, and the upstream
 * never sees `response_format`.
 */

const forecastSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    rain: { type: 'boolean' },
    level: { type: 'string', enum: ['low', 'high'] },
    hours: { type: 'array', items: { type: 'integer' } },
  },
  required: ['city', 'rain', 'level', 'hours'],
  additionalProperties: false,
};
const forecast = z.strictObject({ city: z.string(), rain: z.boolean(), level: z.enum(['low', 'high']), hours: z.array(z.number().int()) });

/** The same with a bound structured outputs do not take, so it goes as a forced tool. */
const boundedSchema = { ...forecastSchema, properties: { ...forecastSchema.properties, celsius: { type: 'number', minimum: -50, maximum: 60 } }, required: [...forecastSchema.required, 'celsius'] };
const bounded = forecast.extend({ celsius: z.number().min(-50).max(60) });

const MODEL = 'claude-sonnet-4-5';
const messages = [{ role: 'user' as const, content: 'The forecast for Paris, please.' }];
const format = (name: string, schema: object) => ({ type: 'json_schema' as const, json_schema: { name, schema: schema as Record<string, unknown>, strict: true } });

describe('structured output on Claude models', () => {
  let t: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway();
    client = new OpenAI({ apiKey: await t.createKey({ name: 'structured' }), baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());
  beforeEach(() => fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' }));

  const upstreamMessages = async () => (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1/messages').map((r) => r.body);
  const streamedContent = async (stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) => {
    let content = '';
    const finishes: string[] = [];
    let toolCalls = 0;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        content += choice.delta.content ?? '';
        toolCalls += choice.delta.tool_calls?.length ?? 0;
        if (choice.finish_reason) finishes.push(choice.finish_reason);
      }
    }
    return { content, finishes, toolCalls };
  };

  it('sends a schema structured outputs take as output_config.format, and the answer fits it', async () => {
    const completion = await client.chat.completions.parse({ model: MODEL, messages, response_format: format('forecast', forecastSchema) });
    const choice = completion.choices[0]!;
    expect(forecast.parse(choice.message.parsed)).toEqual(JSON.parse(choice.message.content!));
    expect(choice.finish_reason).toBe('stop');
    const [upstream] = await upstreamMessages();
    expect(upstream.output_config).toEqual({ format: { type: 'json_schema', schema: forecastSchema } });
    for (const field of ['response_format', 'output_format', 'tools', 'tool_choice']) expect(upstream).not.toHaveProperty(field);
  });

  it('streams it too', async () => {
    const stream = await client.chat.completions.create({ model: MODEL, messages, response_format: format('forecast', forecastSchema), stream: true });
    const { content, finishes, toolCalls } = await streamedContent(stream);
    forecast.parse(JSON.parse(content));
    expect({ finishes, toolCalls }).toEqual({ finishes: ['stop'], toolCalls: 0 });
    const [upstream] = await upstreamMessages();
    expect(upstream).toMatchObject({ stream: true, output_config: { format: { type: 'json_schema', schema: forecastSchema } } });
    expect(upstream).not.toHaveProperty('response_format');
  });

  it('answers a schema beyond structured outputs through a forced tool: the content fits, no tool call shows', async () => {
    const completion = await client.chat.completions.parse({ model: MODEL, messages, response_format: format('bounded_forecast', boundedSchema) });
    const choice = completion.choices[0]!;
    bounded.parse(choice.message.parsed);
    expect({ finish: choice.finish_reason, toolCalls: choice.message.tool_calls ?? [] }).toEqual({ finish: 'stop', toolCalls: [] });
    const [upstream] = await upstreamMessages();
    expect(upstream.tools).toEqual([{ name: 'bounded_forecast', description: expect.any(String), input_schema: boundedSchema }]);
    expect(upstream.tool_choice).toEqual({ type: 'tool', name: 'bounded_forecast' });
    for (const field of ['response_format', 'output_config', 'output_format']) expect(upstream).not.toHaveProperty(field);
  });

  it('streams the forced tool\'s input as content', async () => {
    const stream = await client.chat.completions.create({ model: MODEL, messages, response_format: format('bounded_forecast', boundedSchema), stream: true });
    const { content, finishes, toolCalls } = await streamedContent(stream);
    bounded.parse(JSON.parse(content));
    expect({ finishes, toolCalls }).toEqual({ finishes: ['stop'], toolCalls: 0 });
    expect((await upstreamMessages())[0]).toMatchObject({ stream: true, tool_choice: { type: 'tool', name: 'bounded_forecast' } });
  });

  it('answers json_object with a JSON object, through a forced tool', async () => {
    const completion = await client.chat.completions.create({ model: MODEL, messages, response_format: { type: 'json_object' } });
    const value = JSON.parse(completion.choices[0]!.message.content!);
    expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
    const [upstream] = await upstreamMessages();
    expect(upstream.tool_choice).toEqual({ type: 'tool', name: 'json_object' });
    expect(upstream.tools).toEqual([expect.objectContaining({ name: 'json_object', input_schema: { type: 'object' } })]);
  });

  it('keeps thinking with structured outputs, and refuses it with a forced tool, naming the field', async () => {
    const thought = await client.chat.completions.create({ model: MODEL, messages, max_tokens: 8000, reasoning_effort: 'low', response_format: format('forecast', forecastSchema) });
    forecast.parse(JSON.parse(thought.choices[0]!.message.content!));
    expect((await upstreamMessages())[0]).toMatchObject({ thinking: { type: 'enabled' }, output_config: { format: { schema: forecastSchema } } });

    const err: any = await client.chat.completions
      .create({ model: MODEL, messages, max_tokens: 8000, reasoning_effort: 'low', response_format: format('bounded_forecast', boundedSchema) })
      .catch((e: unknown) => e);
    expect({ status: err.status, code: err.code, param: err.param }).toEqual({ status: 400, code: 'unsupported_parameter', param: 'response_format' });
    expect(err.message).toContain('thinking');
    expect(await upstreamMessages()).toHaveLength(1);
  });

  it('answers text.format on /v1/responses through the bridge as output_text that fits', async () => {
    const response = await client.responses.create({
      model: MODEL, input: 'The forecast for Paris, please.', store: false,
      text: { format: { type: 'json_schema', name: 'forecast', schema: forecastSchema, strict: true } },
    });
    forecast.parse(JSON.parse(response.output_text));
    const streamed = await client.responses
      .stream({ model: MODEL, input: 'The forecast for Paris, please.', store: false, text: { format: { type: 'json_schema', name: 'bounded_forecast', schema: boundedSchema, strict: true } } })
      .finalResponse();
    bounded.parse(JSON.parse(streamed.output_text));
    expect(streamed.output.filter((item) => item.type === 'function_call')).toEqual([]);
    const [whole, forced] = await upstreamMessages();
    expect(whole.output_config).toEqual({ format: { type: 'json_schema', schema: forecastSchema } });
    expect(forced.tool_choice).toEqual({ type: 'tool', name: 'bounded_forecast' });
    for (const body of [whole, forced]) expect(body).not.toHaveProperty('response_format');
  });
});
