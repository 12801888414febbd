import OpenAI from 'openai';
import { parseSse } from '../../../src/providers/sse-parser';
import { errorBody, openaiClient, postJson, readRecorded, readUntilClosed, requestLog, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();
let client: OpenAI;
beforeAll(() => {
  client = openaiClient(simulator.current);
});

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['city', 'unit', 'days'],
    additionalProperties: false,
  },
  strict: true,
};
const timeTool = { type: 'function' as const, name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] }, strict: false };

const postResponses = (body: object, init: RequestInit = {}) => postJson(simulator.current, '/v1/responses', body, init);

interface NamedEvent {
  event: string | undefined;
  /** The parsed payload; tests read into it freely. */
  data: any;
}

async function streamedEvents(body: object): Promise<NamedEvent[]> {
  const response = await postResponses({ ...body, stream: true });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  return namedEvents(await response.text());
}

async function namedEvents(text: string): Promise<NamedEvent[]> {
  const events: NamedEvent[] = [];
  for await (const event of parseSse(once(text))) events.push({ event: event.event, data: JSON.parse(event.data) });
  return events;
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** The output a client rebuilds from a stream: each item as its `output_item.done` gave it. */
function assembledOutput(events: NamedEvent[]): unknown[] {
  return events.filter((e) => e.event === 'response.output_item.done').map((e) => e.data.item);
}

const dataUrl = (mediaType: string, bytes: number) => `data:${mediaType};base64,${Buffer.alloc(bytes, 7).toString('base64')}`;

describe('a whole response', () => {
  it('answers with a response object the SDK reads, usage adding up', async () => {
    const { data, response } = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Say hello' }).withResponse();

    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(data).toMatchObject({
      id: expect.stringMatching(/^resp_[0-9a-f]{50}$/),
      object: 'response',
      status: 'completed',
      model: 'gpt-4.1-mini',
      error: null,
      incomplete_details: null,
      store: true,
      tool_choice: 'auto',
      tools: [],
      text: { format: { type: 'text' } },
      reasoning: { effort: null, summary: null },
      metadata: {},
    });
    expect(Math.abs(data.created_at - Date.now() / 1000)).toBeLessThan(5);
    expect(data.output).toEqual([
      {
        id: expect.stringMatching(/^msg_[0-9a-f]{50}$/),
        type: 'message',
        status: 'completed',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: expect.any(String) }],
        role: 'assistant',
      },
    ]);
    const usage = data.usage!;
    expect(usage.output_tokens).toBe(Math.ceil(data.output_text.length / 4));
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
    expect(usage.input_tokens_details).toEqual({ cached_tokens: 0 });
    expect(usage.output_tokens_details).toEqual({ reasoning_tokens: 0 });
  });

  it('is the same simulated model as chat completions: the same prompt, the same text', async () => {
    const prompt = 'What is a gateway?';
    const viaResponses = await client.responses.create({ model: 'gpt-4o', instructions: 'Be brief.', input: [{ role: 'user', content: [{ type: 'input_text', text: prompt }] }] });
    const viaChat = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: prompt }] });

    expect(viaResponses.output_text).toBe(viaChat.choices[0]!.message.content);
    expect(viaResponses.instructions).toBe('Be brief.');
  });

  it('fills a json_schema text format with a value of the schema', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0, maximum: 120 } }, required: ['name', 'age'], additionalProperties: false };
    const response = await client.responses.create({ model: 'gpt-4.1', input: 'A person, please', text: { format: { type: 'json_schema', name: 'person', schema, strict: true } } });

    const value = JSON.parse(response.output_text);
    expect(Object.keys(value).sort()).toEqual(['age', 'name']);
    expect(response.text!.format).toMatchObject({ type: 'json_schema', name: 'person' });
  });

  it('stops at max_output_tokens as incomplete, and refuses a cap under 16 as OpenAI does', async () => {
    const response = await client.responses.create({ model: 'gpt-4.1', input: 'Tell me a long story [sim words=200]', max_output_tokens: 16 });

    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(response.output_text).toHaveLength(64);
    expect(response.usage!.output_tokens).toBe(16);

    const tooSmall = await postResponses({ model: 'gpt-4.1', input: 'Hi', max_output_tokens: 5 });
    expect(tooSmall.status).toBe(400);
    expect((await errorBody(tooSmall)).error).toEqual({
      message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 5 instead.",
      type: 'invalid_request_error',
      param: 'max_output_tokens',
      code: 'integer_below_min_value',
    });
  });
});

describe('a streamed response', () => {
  it('sends the events in the official order, named, numbered, and ending with the whole response', async () => {
    const events = await streamedEvents({ model: 'gpt-4.1', input: 'Stream me something [sim words=30 chunk=20]' });

    for (const e of events) expect(e.event).toBe(e.data.type);
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, index) => index));
    const names = events.map((e) => e.event);
    const deltas = names.filter((name) => name === 'response.output_text.delta').length;
    expect(deltas).toBeGreaterThan(1);
    expect(names).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array(deltas).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const [created, inProgress] = events;
    expect(created!.data.response).toMatchObject({ status: 'in_progress', output: [], usage: null });
    expect(inProgress!.data.response).toEqual(created!.data.response);
    const item = events[2]!.data.item;
    expect(item).toEqual({ id: expect.stringMatching(/^msg_/), type: 'message', status: 'in_progress', content: [], role: 'assistant' });
    for (const e of events.slice(3, -2)) expect(e.data).toMatchObject({ item_id: item.id, output_index: 0, content_index: 0 });
    const text = events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.data.delta).join('');
    expect(events.find((e) => e.event === 'response.output_text.done')!.data.text).toBe(text);

    const completed = events.at(-1)!.data.response;
    expect(completed).toMatchObject({ id: created!.data.response.id, status: 'completed', usage: { output_tokens: Math.ceil(text.length / 4) } });
    expect(completed.output).toEqual(assembledOutput(events));
    expect(completed.output[0].content[0].text).toBe(text);
  });

  it('is read by the SDK stream helper into the same final response', async () => {
    const stream = client.responses.stream({ model: 'gpt-4o-mini', input: 'Stream me something' });
    let text = '';
    stream.on('response.output_text.delta', (event) => (text += event.delta));
    const final = await stream.finalResponse();

    expect(final.output_text).toBe(text);
    expect(final.usage!.total_tokens).toBe(final.usage!.input_tokens + final.usage!.output_tokens);
  });

  it('leaves the obfuscation padding out when the client turns it off', async () => {
    const padded = await streamedEvents({ model: 'gpt-4.1', input: 'Hi' });
    const plain = await streamedEvents({ model: 'gpt-4.1', input: 'Hi', stream_options: { include_obfuscation: false } });

    expect(padded.filter((e) => e.event === 'response.output_text.delta').every((e) => typeof e.data.obfuscation === 'string')).toBe(true);
    expect(plain.some((e) => 'obfuscation' in e.data)).toBe(false);
  });

  it('ends a capped answer with response.incomplete', async () => {
    const events = await streamedEvents({ model: 'gpt-4.1', input: 'Long [sim words=100]', max_output_tokens: 16 });

    expect(events.at(-1)!.data).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
  });

  it('sends an error event numbered in sequence with stream_error, and drops the connection with cut_after', async () => {
    const failed = await streamedEvents({ model: 'gpt-4.1', input: 'Hi [sim stream_error=2 words=40]' });
    expect(failed.map((e) => e.event).slice(-1)).toEqual(['error']);
    expect(failed.at(-1)!.data).toEqual({ type: 'error', code: 'server_error', message: expect.any(String), param: null, sequence_number: 4 });

    const cut = await postResponses({ model: 'gpt-4.1', input: 'Hi [sim cut_after=2 words=40]', stream: true });
    const { text, failed: broken } = await readUntilClosed(cut);
    expect(broken).toBe(true);
    expect((await namedEvents(text)).map((e) => e.event)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
  });
});

describe('tool calls', () => {
  it('calls the tool the user names, with arguments that fit its schema', async () => {
    const response = await client.responses.create({ model: 'gpt-4.1', input: 'What time is it in Paris? Use get_time.', tools: [weatherTool, timeTool] });

    expect(response.output).toEqual([
      { id: expect.stringMatching(/^fc_[0-9a-f]{50}$/), type: 'function_call', status: 'completed', arguments: expect.any(String), call_id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/), name: 'get_time' },
    ]);
    expect(Object.keys(JSON.parse((response.output[0] as OpenAI.Responses.ResponseFunctionToolCall).arguments))).toEqual(['zone']);
    expect(response.tools).toEqual([
      { type: 'function', description: 'The weather in a city.', name: 'get_weather', parameters: weatherTool.parameters, strict: true },
      { type: 'function', description: null, name: 'get_time', parameters: timeTool.parameters, strict: false },
    ]);
  });

  it('follows tool_choice: a named tool, none, and several calls with tool_calls=2', async () => {
    const named = await client.responses.create({ model: 'gpt-4.1', input: 'Weather?', tools: [weatherTool, timeTool], tool_choice: { type: 'function', name: 'get_time' } });
    expect(named.output.map((item) => (item as { name?: string }).name)).toEqual(['get_time']);

    const none = await client.responses.create({ model: 'gpt-4.1', input: 'Weather?', tools: [weatherTool], tool_choice: 'none' });
    expect(none.output.map((item) => item.type)).toEqual(['message']);

    const two = await client.responses.create({ model: 'gpt-4.1', input: 'Both please [sim tool_calls=2]', tools: [weatherTool, timeTool] });
    const args = two.output.map((item) => JSON.parse((item as OpenAI.Responses.ResponseFunctionToolCall).arguments));
    expect(two.output.map((item) => (item as { name?: string }).name)).toEqual(['get_weather', 'get_time']);
    expect(['celsius', 'fahrenheit']).toContain(args[0].unit);
    expect(args[0].days).toBeGreaterThanOrEqual(1);
  });

  it('streams a call as argument deltas that add up to the arguments', async () => {
    const events = await streamedEvents({ model: 'gpt-4.1', input: 'Weather in Rome [sim chunk=8]', tools: [weatherTool] });

    const names = events.map((e) => e.event);
    expect(names.slice(0, 3)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added']);
    expect(events[2]!.data.item).toEqual({ id: expect.stringMatching(/^fc_/), type: 'function_call', status: 'in_progress', arguments: '', call_id: expect.stringMatching(/^call_/), name: 'get_weather' });
    const deltas = events.filter((e) => e.event === 'response.function_call_arguments.delta');
    const done = events.find((e) => e.event === 'response.function_call_arguments.done')!;
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.data.delta).join('')).toBe(done.data.arguments);
    expect(done.data).toEqual({ type: 'response.function_call_arguments.done', sequence_number: expect.any(Number), item_id: events[2]!.data.item.id, output_index: 0, arguments: done.data.arguments });
    expect(names.slice(-2)).toEqual(['response.output_item.done', 'response.completed']);
    expect(events.at(-1)!.data.response.output).toEqual(assembledOutput(events));
  });

  it('completes a round trip: the output items and the tool output go back, the answer quotes the output', async () => {
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Weather in Rome?' }];
    const first = await client.responses.create({ model: 'gpt-4.1', input, tools: [weatherTool] });
    const call = first.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await client.responses.create({
      model: 'gpt-4.1',
      tools: [weatherTool],
      input: [...input, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 21}' }],
    });

    expect(second.output.map((item) => item.type)).toEqual(['message']);
    expect(second.output_text.startsWith('The tool returned: {"temperature": 21}.')).toBe(true);
  });

  it('refuses a round trip that lost a half, and a tool_choice naming no tool', async () => {
    const orphanOutput = await postResponses({ model: 'gpt-4.1', input: [{ role: 'user', content: 'x' }, { type: 'function_call_output', call_id: 'call_missing', output: '1' }] });
    expect(orphanOutput.status).toBe(400);
    expect((await errorBody(orphanOutput)).error.message).toBe('No tool call found for function call output with call_id call_missing.');

    const unanswered = await postResponses({ model: 'gpt-4.1', input: [{ role: 'user', content: 'x' }, { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' }] });
    expect((await errorBody(unanswered)).error.message).toBe('No tool output found for function call call_1.');

    const stray = await postResponses({ model: 'gpt-4.1', input: 'x', tools: [weatherTool], tool_choice: { type: 'function', name: 'nope' } });
    expect(stray.status).toBe(400);
    expect((await errorBody(stray)).error.param).toBe('tool_choice');
  });
});

describe('reasoning models', () => {
  it('put a reasoning item first, with a summary and encrypted content when asked, and bill the reasoning', async () => {
    const response = await client.responses.create({
      model: 'o4-mini',
      input: 'Think about it',
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
    });

    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(response.output[0]).toEqual({
      id: expect.stringMatching(/^rs_[0-9a-f]{50}$/),
      type: 'reasoning',
      encrypted_content: expect.stringMatching(/^gAAAAA/),
      summary: [{ type: 'summary_text', text: expect.stringMatching(/^\*\*.+\*\*\n\n/) }],
    });
    expect(response.reasoning).toEqual({ effort: 'low', summary: 'auto' });
    expect(response.usage!.output_tokens_details.reasoning_tokens).toBe(128);
    expect(response.usage!.output_tokens).toBe(128 + Math.ceil(response.output_text.length / 4));
  });

  it('gives a bare reasoning item when neither summary nor encrypted content is asked for', async () => {
    const response = await client.responses.create({ model: 'gpt-5-mini', input: 'Think' });
    expect(response.output[0]).toEqual({ id: expect.stringMatching(/^rs_/), type: 'reasoning', summary: [] });
  });

  it('streams the summary as summary part and text events inside the reasoning item', async () => {
    const events = await streamedEvents({ model: 'o3', input: 'Think [sim chunk=30]', reasoning: { summary: 'detailed' }, include: ['reasoning.encrypted_content'] });

    const reasoningEvents = events.slice(2, events.findIndex((e) => e.event === 'response.output_item.done') + 1);
    const names = reasoningEvents.map((e) => e.event);
    const deltas = names.filter((name) => name === 'response.reasoning_summary_text.delta').length;
    expect(names).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      ...Array(deltas).fill('response.reasoning_summary_text.delta'),
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
    ]);
    expect(reasoningEvents[0]!.data.item).toMatchObject({ type: 'reasoning', encrypted_content: expect.stringMatching(/^gAAAAA/), summary: [] });
    const summary = reasoningEvents.filter((e) => e.event === 'response.reasoning_summary_text.delta').map((e) => e.data.delta).join('');
    expect(reasoningEvents.at(-1)!.data.item.summary).toEqual([{ type: 'summary_text', text: summary }]);
    expect(events.at(-1)!.data.response.output).toEqual(assembledOutput(events));
  });

  it('takes its reasoning items back in a stateless round trip, and refuses altered encrypted content', async () => {
    const tools = [weatherTool];
    const first = await client.responses.create({ model: 'o4-mini', input: 'Weather in Oslo?', tools, store: false, include: ['reasoning.encrypted_content'] });
    const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    const history = [{ role: 'user' as const, content: 'Weather in Oslo?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[])];
    const output = { type: 'function_call_output' as const, call_id: call.call_id, output: 'sunny' };

    const second = await client.responses.create({ model: 'o4-mini', input: [...history, output], tools, store: false });
    expect(second.output.map((item) => item.type)).toEqual(['reasoning', 'message']);

    const tampered = history.map((item) => ('type' in item && item.type === 'reasoning' ? { ...item, encrypted_content: 'not-a-token' } : item));
    const refused = await postResponses({ model: 'o4-mini', input: [...tampered, output], tools, store: false });
    expect(refused.status).toBe(400);
    expect((await errorBody(refused)).error).toMatchObject({ code: 'invalid_encrypted_content', param: 'input[1].encrypted_content' });
  });

  it('refuse temperature with the recorded error, top_p alike, and an effort they do not take', async () => {
    const temperature = await postResponses({ model: 'gpt-5', input: 'Hi', temperature: 0.2 });
    expect(temperature.status).toBe(400);
    expect(await temperature.json()).toEqual(JSON.parse(readRecorded('openai-responses/reasoning-model-temperature-error.json').toString('utf8')));

    const topP = await postResponses({ model: 'o3', input: 'Hi', top_p: 0.5 });
    expect((await errorBody(topP)).error).toMatchObject({ param: 'top_p', message: "Unsupported parameter: 'top_p' is not supported with this model." });

    const effort = await postResponses({ model: 'o3', input: 'Hi', reasoning: { effort: 'minimal' } });
    expect((await errorBody(effort)).error).toMatchObject({ param: 'reasoning.effort', code: 'unsupported_value' });
  });

  it('other models refuse reasoning.effort', async () => {
    const response = await postResponses({ model: 'gpt-4.1', input: 'Hi', reasoning: { effort: 'low' } });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toMatchObject({ param: 'reasoning.effort', message: "Unsupported parameter: 'reasoning.effort' is not supported with this model." });
  });
});

describe('request errors', () => {
  it.each<[string, object, number, object]>([
    ['no model', { input: 'Hi' }, 400, { param: 'model', code: 'missing_required_parameter' }],
    ['no input', { model: 'gpt-4.1' }, 400, { param: 'input', code: 'missing_required_parameter' }],
    ['an empty input', { model: 'gpt-4.1', input: [] }, 400, { param: 'input', code: 'invalid_value' }],
    ['a chat-shaped tool', { model: 'gpt-4.1', input: 'Hi', tools: [{ type: 'function', function: { name: 'f' } }] }, 400, { param: 'tools[0].name', code: 'missing_required_parameter' }],
    ['a chat-shaped tool_choice', { model: 'gpt-4.1', input: 'Hi', tools: [timeTool], tool_choice: { type: 'function', function: { name: 'get_time' } } }, 400, { param: 'tool_choice.name' }],
    ['an unknown role', { model: 'gpt-4.1', input: [{ role: 'robot', content: 'Hi' }] }, 400, { param: 'input[0].role', code: 'invalid_value' }],
    ['a chat text part', { model: 'gpt-4.1', input: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }, 400, { param: 'input[0].content[0].type' }],
    ['an input part in an assistant turn', { model: 'gpt-4.1', input: [{ role: 'assistant', content: [{ type: 'input_text', text: 'Hi' }] }, { role: 'user', content: 'x' }] }, 400, { param: 'input[0].content[0].type' }],
    ['a reasoning item without summary', { model: 'o3', input: [{ role: 'user', content: 'x' }, { type: 'reasoning', id: 'rs_1' }] }, 400, { param: 'input[1].summary' }],
    ['an item reference, with nothing stored', { model: 'gpt-4.1', input: [{ type: 'item_reference', id: 'msg_1' }] }, 404, { param: 'input[0].id' }],
    ['a previous_response_id, with nothing stored', { model: 'gpt-4.1', input: 'Hi', previous_response_id: 'resp_abc' }, 400, { message: "Previous response with id 'resp_abc' not found.", param: 'previous_response_id', code: 'previous_response_not_found' }],
    ['the unknown model', { model: 'unknown-model', input: 'Hi' }, 404, { code: 'model_not_found' }],
  ])('%s', async (_, body, status, error) => {
    const response = await postResponses(body);
    expect(response.status).toBe(status);
    expect((await errorBody(response)).error).toMatchObject({ type: 'invalid_request_error', ...error });
  });

  it('answers the error directives as chat does: a 429 with retry-after the SDK understands', async () => {
    const failure = await client.responses.create({ model: 'gpt-4.1', input: 'Hi [sim status=429 retry_after=2]' }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect((failure as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('2');
  });

  it('fails the first sighting with fail_times and answers the next', async () => {
    const input = `Retry me ${Date.now()} [sim fail_times=1 status=503]`;
    expect((await postResponses({ model: 'gpt-4.1', input })).status).toBe(503);
    expect((await postResponses({ model: 'gpt-4.1', input })).status).toBe(200);
  });
});

describe('file and image inputs', () => {
  const withParts = (...parts: object[]) => ({ model: 'gpt-4.1', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Read this' }, ...parts] }] });
  const inputTokens = async (body: object) => {
    const response = await postResponses(body);
    expect(response.status).toBe(200);
    return ((await response.json()) as { usage: { input_tokens: number } }).usage.input_tokens;
  };

  it('counts inline file bytes, images and fetched files in the input tokens', async () => {
    const base = await inputTokens(withParts());

    expect(await inputTokens(withParts({ type: 'input_file', filename: 'a.pdf', file_data: dataUrl('application/pdf', 4000) }))).toBe(base + 1000);
    expect(await inputTokens(withParts({ type: 'input_file', filename: 'a.pdf', file_data: dataUrl('application/pdf', 8001) }))).toBe(base + 2001);
    expect(await inputTokens(withParts({ type: 'input_image', image_url: dataUrl('image/png', 100), detail: 'low' }))).toBe(base + 85);
    expect(await inputTokens(withParts({ type: 'input_image', image_url: 'https://example.com/cat.png' }))).toBe(base + 85);
    expect(await inputTokens(withParts({ type: 'input_file', file_url: 'https://example.com/report.pdf' }))).toBe(base + 256);
  });

  it('refuses any file_id, since it keeps no files, and malformed file data', async () => {
    const file = await postResponses(withParts({ type: 'input_file', file_id: 'file-abc123' }));
    expect(file.status).toBe(400);
    expect((await errorBody(file)).error).toMatchObject({ message: "The file 'file-abc123' was not found.", param: 'input[0].content[1].file_id' });

    const image = await postResponses(withParts({ type: 'input_image', file_id: 'file-img' }));
    expect(image.status).toBe(400);
    expect((await errorBody(image)).error.param).toBe('input[0].content[1].file_id');

    const notDataUrl = await postResponses(withParts({ type: 'input_file', filename: 'a.pdf', file_data: 'JVBERi0xLjQK' }));
    expect((await errorBody(notDataUrl)).error.param).toBe('input[0].content[1].file_data');

    const noName = await postResponses(withParts({ type: 'input_file', file_data: dataUrl('application/pdf', 10) }));
    expect((await errorBody(noName)).error.param).toBe('input[0].content[1].filename');

    const pdfAsImage = await postResponses(withParts({ type: 'input_image', image_url: dataUrl('application/pdf', 10) }));
    expect((await errorBody(pdfAsImage)).error.message).toContain("unsupported MIME type 'application/pdf'");
  });

  it('logs each request with its path and body, as the gateway tests read them', async () => {
    const body = withParts({ type: 'input_file', filename: 'notes.txt', file_data: dataUrl('text/plain', 12) });
    await postResponses(body);

    const logged = (await requestLog(simulator.current, '?limit=1')).requests[0]!;
    expect(logged).toMatchObject({ method: 'POST', path: '/v1/responses', body });
    expect(logged.headers.authorization).toBe('[redacted]');
  });
});

describe('replay of recorded Responses answers', () => {
  it.each(['parallel-tool-call', 'reasoning-encrypted-content'])('answers replay=%s with the recorded body, byte for byte', async (name) => {
    const response = await postResponses({ model: 'gpt-5', input: `Go [sim replay=${name}]` });

    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(readRecorded(`openai-responses/${name}.json`))).toBe(true);
  });

  it('answers a recorded error body with its status 400', async () => {
    const response = await postResponses({ model: 'recorded:reasoning-model-temperature-error', input: 'Hi' });

    expect(response.status).toBe(400);
    expect(Buffer.from(await response.arrayBuffer()).equals(readRecorded('openai-responses/reasoning-model-temperature-error.json'))).toBe(true);
  });

  it('streams each recorded turn of an agent loop in turn, each line one named event, no [DONE]', async () => {
    const lines = readRecorded('openai-responses/reasoning-encrypted-content.chunks.txt').toString('utf8').split('\n').filter(Boolean);
    const history: object[] = [{ role: 'user', content: 'Compute it step by step [sim replay=reasoning-encrypted-content]' }];
    let replayed = '';
    for (let turn = 0; turn < 4; turn++) {
      const response = await postResponses({ model: 'gpt-5-mini', input: history, stream: true });
      const text = await response.text();
      replayed += text;
      const events = await namedEvents(text);
      const output = events.at(-1)!.data.response.output as { type: string; call_id?: string }[];
      history.push(...output);
      for (const item of output) if (item.type === 'function_call') history.push({ type: 'function_call_output', call_id: item.call_id, output: '42' });
    }

    expect(replayed).toBe(lines.map((line) => `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`).join(''));
  });

  it('is read by the SDK', async () => {
    const stream = client.responses.stream({ model: 'gpt-5-mini', input: 'Go [sim replay=reasoning-encrypted-content]' });
    const final = await stream.finalResponse();

    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(final.usage).toEqual({ input_tokens: 134, input_tokens_details: { cached_tokens: 0 }, output_tokens: 28, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 162 });
  });

  it('says which recording is missing', async () => {
    const response = await postResponses({ model: 'gpt-4.1', input: 'Hi [sim replay=parallel-tool-call]', stream: true });

    expect(response.status).toBe(400);
    expect((await errorBody(response)).error.message).toContain('openai-responses/parallel-tool-call.chunks.txt');
  });
});
