import OpenAI from 'openai';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { readStreamedChat } from '../support/streamed-chat';

/**
 * Gemini 3 streams a function call's arguments in pieces (a start with the
 * name, `partialArgs` pieces, an end); through the real gateway the openai
 * SDK sees one ordinary tool call. The simulator streams that shape on
 * `[sim stream_args]`, and sends a chunk no Gemini answer has on
 * `[sim bad_chunk]`.
 */

const bookingTool: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'book_room',
    description: 'Books a hotel room',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        guest: { type: 'object', properties: { name: { type: 'string', const: 'Ada Lovelace' }, vip: { type: 'boolean' } } },
        nights: { type: 'integer', minimum: 1, maximum: 14 },
        rooms: { type: 'array', items: { type: 'string', enum: ['single', 'double'] }, minItems: 2 },
      },
      required: ['city', 'guest', 'nights', 'rooms'],
    },
  },
};

const EXPECTED_ARGUMENTS = {
  city: expect.any(String),
  guest: { name: 'Ada Lovelace', vip: expect.any(Boolean) },
  nights: expect.any(Number),
  rooms: [expect.stringMatching(/^(single|double)$/), expect.stringMatching(/^(single|double)$/)],
};

describe.each(TEST_DATABASES)('Gemini function call arguments streamed in pieces (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'gemini-streamed-arguments' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  it('streams one tool call whose arguments are the whole call\'s, finish_reason tool_calls, a usage trailer and a usage record', async () => {
    const prompt = 'Book me a room in Lisbon for the conference [sim stream_args]';
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gemini-3-pro-preview', stream: true, stream_options: { include_usage: true }, tools: [bookingTool], messages: [{ role: 'user', content: prompt }] })
      .withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    const { toolCalls: calls, argumentDeltas, finishReason: finish, usage } = await readStreamedChat(stream);

    // Gemini sent the call in pieces: the same request, sent to the simulator again, streams a start, pieces and an end...
    const { requests } = await simulatorRequests(t);
    const sent = requests.at(-1)!;
    expect(sent.path).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent');
    const again = await fetch(`${t.simulatorUrl}${sent.path}?alt=sse`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'test-key' }, body: JSON.stringify(sent.body),
    });
    const upstreamParts = (await again.text()).trim().split('\n\n').map((frame) => JSON.parse(frame.slice('data: '.length)).candidates[0].content.parts[0]);
    expect(upstreamParts.find((part) => part.functionCall)).toMatchObject({ functionCall: { name: 'book_room', willContinue: true } });
    expect(upstreamParts.filter((part) => part.functionCall?.partialArgs).length).toBeGreaterThan(4);
    // ...and the client got one tool call, its arguments valid JSON once joined.
    expect([...calls.keys()]).toEqual([0]);
    const call = calls.get(0)!;
    expect(call).toEqual({ id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'book_room', arguments: expect.any(String) });
    expect(argumentDeltas).toBe(1);
    const args = JSON.parse(call.arguments);
    expect(args).toEqual(EXPECTED_ARGUMENTS);
    expect(finish).toBe('tool_calls');

    // The same request answered whole gives the same call: the pieces assembled to exactly it.
    const whole = await client.chat.completions.create({ model: 'gemini-3-pro-preview', tools: [bookingTool], messages: [{ role: 'user', content: prompt }] });
    const wholeCall = whole.choices[0]!.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(JSON.parse(wholeCall.function.arguments)).toEqual(args);
    expect(whole.usage).toMatchObject({ prompt_tokens: usage!.prompt_tokens, completion_tokens: usage!.completion_tokens });

    expect(usage!.completion_tokens).toBeGreaterThan(0);
    const { status, body } = await fetchUsageRecord(t, key, requestId);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: requestId,
      model: 'gemini-3-pro-preview',
      routing: { status_code: 200, was_streaming: true },
      usage: { prompt_tokens: usage!.prompt_tokens, completion_tokens: usage!.completion_tokens, measurement: { input: 'provider', output: 'provider' } },
      provider_usage: { family: 'gemini' },
    });
    expect(body.billing.amount_microusd).toBeGreaterThan(0);
  });

  it('is a tool call the SDK\'s own stream helper assembles and parses', async () => {
    const stream = client.chat.completions.stream({
      model: 'gemini-3-pro-preview',
      tools: [bookingTool],
      messages: [{ role: 'user', content: 'Another room, in Porto [sim stream_args]' }],
    });
    const completion = await stream.finalChatCompletion();
    const [choice] = completion.choices;
    expect(choice!.finish_reason).toBe('tool_calls');
    const toolCall = choice!.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(toolCall.function.name).toBe('book_room');
    expect(JSON.parse(toolCall.function.arguments)).toEqual(EXPECTED_ARGUMENTS);
  });

  it('ends a stream with an error event naming the provider and the field when Gemini sends a chunk the gateway cannot read, and stays up', async () => {
    const res = await fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gemini-3-pro-preview', stream: true, messages: [{ role: 'user', content: 'Tell me a story [sim bad_chunk words=40 chunk=8]' }] }),
    });
    expect(res.status).toBe(200);
    const raw = await res.text();
    expect(raw).not.toContain('[DONE]');
    const events = raw.trim().split('\n\n').map((frame) => JSON.parse(frame.slice('data: '.length)));
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.slice(0, -1).every((event) => event.object === 'chat.completion.chunk')).toBe(true);
    // What Gemini said before the bad chunk reached the client (a thought summary first, on Gemini 3).
    expect(events.slice(1, -1).some((event) => event.choices[0]?.delta?.content || event.choices[0]?.delta?.reasoning_content)).toBe(true);
    const { error } = events.at(-1)!;
    expect(error).toMatchObject({ type: 'upstream_error', code: 'upstream_error', request_id: res.headers.get('x-svc-request-id') });
    expect(error.message).toBe(
      'Gemini sent a stream chunk the gateway cannot read: candidates.0.content.parts.0.functionCall.partialArgs: Invalid input: expected array, received number. ' +
        'Retry the request; if it persists, report the request_id.',
    );
    expect(error.message).not.toMatch(/127\.0\.0\.1|http|simulator|x-goog-api-key/);

    const { body } = await fetchUsageRecord(t, key, res.headers.get('x-svc-request-id')!);
    expect(body.routing).toMatchObject({ status_code: 502, was_streaming: true });
    expect(body.billing.amount_microusd).toBe(0);

    // The SDK reports it as an error, not as a finished answer.
    const stream = await client.chat.completions.create({ model: 'gemini-3-pro-preview', stream: true, messages: [{ role: 'user', content: 'Again [sim bad_chunk]' }] });
    const failure = await (async () => {
      for await (const chunk of stream) void chunk;
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('Gemini sent a stream chunk the gateway cannot read');

    // The gateway is still up and answering.
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    const after = await client.chat.completions.create({ model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: 'Still there?' }] });
    expect(after.choices[0]!.message.content).toBeTruthy();
  });
});
