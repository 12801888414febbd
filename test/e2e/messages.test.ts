import Anthropic from '@anthropic-ai/sdk';
import { eventually } from '../support/eventually';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** A Claude model (served natively), an OpenAI model and a Gemini model (through the chat core), each with the upstream path the simulator logs. */
const MODELS = [
  { model: 'claude-sonnet-4-5', upstreamPath: '/v1/messages' },
  { model: 'gpt-4.1-mini', upstreamPath: '/v1/chat/completions' },
  { model: 'gemini-2.5-flash', upstreamPath: '/v1beta/models/gemini-2.5-flash:generateContent' },
] as const;

/** A Messages stream read to its end: the event types in order, the text its deltas carried, and the SDK's final message. */
async function readStream(stream: ReturnType<Anthropic['messages']['stream']>) {
  const types: string[] = [];
  let text = '';
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
  }
  return { types, text, final: await stream.finalMessage() };
}

/**
 * Anthropic's Messages API at the gateway's root, driven by the official
 * `@anthropic-ai/sdk` unchanged (its `baseURL` the gateway's), against a
 * Claude model (native), an OpenAI model and a Gemini model (through the
 * chat core): whole and streamed messages, tools, a thinking round trip whose
 * signatures reach the upstream intact, token counts, the usage records and
 * every refusal in Anthropic's shape.
 */
describe.each(TEST_DATABASES)('the Messages API (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: Anthropic;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'messages' });
    client = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  const recordOf = (requestId: string) =>
    eventually(async () => {
      const r = await fetchUsageRecord(t, key, requestId);
      return r.status === 200 ? r.body : undefined;
    }, `usage record ${requestId}`);
  const gatewayRequestId = (id: string | null | undefined) => String(id);

  describe.each(MODELS)('$model', ({ model, upstreamPath }) => {
    it('answers a message in Anthropic\'s shape, with the gateway\'s ids and one usage record', async () => {
      const { data: message, response, request_id } = await client.messages
        .create({ model, max_tokens: 2048, system: 'Be brief.', messages: [{ role: 'user', content: 'Say hello' }] })
        .withResponse();
      const requestId = response.headers.get('x-svc-request-id')!;
      expect(request_id).toBe(requestId);
      expect(message).toMatchObject({ id: `msg_${requestId.replace(/^req_/, '')}`, type: 'message', role: 'assistant', model, stop_reason: 'end_turn', stop_sequence: null });
      const answer = message.content.find((b): b is Anthropic.TextBlock => b.type === 'text');
      expect(answer?.text.length).toBeGreaterThan(0);
      expect(message.usage.input_tokens).toBeGreaterThan(0);
      expect(message.usage.output_tokens).toBeGreaterThan(0);
      const record = await recordOf(requestId);
      expect(record).toMatchObject({ endpoint: '/v1/messages', model, routing: { status_code: 200, was_streaming: false } });
      expect(record.usage.prompt_tokens).toBe(message.usage.input_tokens + (message.usage.cache_read_input_tokens ?? 0) + (message.usage.cache_creation_input_tokens ?? 0));
      expect(record.usage.completion_tokens).toBe(message.usage.output_tokens);
      expect(record.billing.amount_microusd).toBeGreaterThan(0);
    });

    it('streams in Anthropic\'s event order, and the SDK puts the final message together', async () => {
      const stream = client.messages.stream({ model, max_tokens: 2048, messages: [{ role: 'user', content: 'Tell me a story' }] });
      const { types, text, final } = await readStream(stream);
      expect(types[0]).toBe('message_start');
      expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
      expect(types).toContain('content_block_start');
      expect(types.indexOf('content_block_stop')).toBeGreaterThan(types.indexOf('content_block_delta'));
      expect(final.content.find((b: Anthropic.ContentBlock) => b.type === 'text')).toMatchObject({ type: 'text', text });
      expect(text.length).toBeGreaterThan(0);
      expect(final.stop_reason).toBe('end_turn');
      expect(final.model).toBe(model);
      expect(final.usage.output_tokens).toBeGreaterThan(0);
      expect(final.usage.input_tokens).toBeGreaterThan(0);
      const record = await recordOf(gatewayRequestId(stream.request_id));
      expect(record).toMatchObject({ endpoint: '/v1/messages', routing: { status_code: 200, was_streaming: true } });
      expect(record.usage.completion_tokens).toBe(final.usage.output_tokens);
    });

    it('calls a tool, and takes its result on the next turn', async () => {
      const first = await client.messages.create({
        model, max_tokens: 512, tools: [weatherTool], tool_choice: { type: 'any' },
        messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      });
      expect(first.stop_reason).toBe('tool_use');
      const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
      expect(call).toMatchObject({ name: 'get_weather' });
      expect(typeof call.input).toBe('object');
      const second = await client.messages.create({
        model, max_tokens: 512, tools: [weatherTool],
        messages: [
          { role: 'user', content: 'What is the weather in Paris?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 21 C' }] },
        ],
      });
      expect(second.stop_reason).toBe('end_turn');
      expect(second.content.some((b) => b.type === 'text')).toBe(true);
    });

    it('counts tokens, in one uncharged usage record', async () => {
      const { data, response } = await client.messages
        .countTokens({ model, system: 'Be brief.', tools: [weatherTool], messages: [{ role: 'user', content: 'How many tokens is this?' }] })
        .withResponse();
      expect(data.input_tokens).toBeGreaterThan(0);
      const record = await recordOf(response.headers.get('x-svc-request-id')!);
      expect(record).toMatchObject({ endpoint: '/v1/messages/count_tokens', routing: { status_code: 200 }, billing: { amount_microusd: 0 } });
    });

    it('words a malformed request as an Anthropic invalid_request_error', async () => {
      const err: any = await client.messages.create({ model, messages: [{ role: 'user', content: 'Hi' }] } as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      expect(err.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(err.error.error.message).toMatch(/max_tokens/);
      expect(err.requestID).toBe(err.error.request_id);
    });

    it('refuses a missing or wrong key as an AuthenticationError', async () => {
      const noKey = new Anthropic({ apiKey: null, authToken: null, baseURL: t.url, maxRetries: 0, defaultHeaders: { authorization: null, 'x-api-key': null } } as never);
      const missing: any = await noKey.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(missing.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
      const wrong = new Anthropic({ apiKey: 'sk-not-a-key', baseURL: t.url, maxRetries: 0 });
      const refused: any = await wrong.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
    });

    it('takes the key as x-api-key too, and any anthropic-version', async () => {
      const res = await fetch(`${t.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('request-id')).toBe(res.headers.get('x-svc-request-id'));
      expect(((await res.json()) as { type: string }).type).toBe('message');
      expect((await simulatorRequests(t)).requests.some((r) => r.path === upstreamPath)).toBe(true);
    });
  });

  it('answers an unknown model with a NotFoundError', async () => {
    const err: any = await client.messages.create({ model: 'no-such-model', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it('keeps Claude\'s thinking signature through a tool round trip', async () => {
    const params = { model: 'claude-sonnet-4-5', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools: [weatherTool] };
    const first = await client.messages.stream({ ...params, messages: [{ role: 'user', content: 'Weather in Oslo?' }] }).finalMessage();
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    const thinking = first.content[0] as Anthropic.ThinkingBlock;
    expect(thinking.signature.length).toBeGreaterThan(0);
    const call = first.content[1] as Anthropic.ToolUseBlock;
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const second = await client.messages.create({
      ...params,
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: [{ type: 'text', text: 'Snow' }] }] },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    const [upstream] = (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1/messages');
    expect(upstream!.body.messages[1].content[0]).toEqual({ type: 'thinking', thinking: thinking.thinking, signature: thinking.signature });
    expect(upstream.body.model).toBe('claude-sonnet-4-5');
  });

  it('carries Gemini\'s thought signature in a thinking block through a tool round trip', async () => {
    const params = { model: 'gemini-2.5-flash', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools: [weatherTool] };
    const first = await client.messages.create({ ...params, messages: [{ role: 'user', content: 'Weather in Rome?' }] });
    expect(first.stop_reason).toBe('tool_use');
    const signed = first.content.find((b): b is Anthropic.ThinkingBlock => b.type === 'thinking' && b.signature.length > 0);
    expect(signed).toBeDefined();
    const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const second = await client.messages.create({
      ...params,
      messages: [
        { role: 'user', content: 'Weather in Rome?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny' }] },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    const [upstream] = (await simulatorRequests(t)).requests.filter((r) => r.path.startsWith('/v1beta/models/gemini-2.5-flash'));
    const modelTurn = upstream.body.contents.find((c: any) => c.role === 'model');
    const callPart = modelTurn.parts.find((p: any) => p.functionCall);
    expect(typeof callPart.thoughtSignature).toBe('string');
    expect(callPart.thoughtSignature.length).toBeGreaterThan(0);
  });

  it('scopes metadata.user_id to the key upstream, and never shows the scoped value', async () => {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const message = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, metadata: { user_id: 'end-user-7' }, messages: [{ role: 'user', content: 'Hi' }] });
    const [upstream] = (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1/messages');
    expect(upstream.body.metadata.user_id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(message)).not.toContain(upstream.body.metadata.user_id);
    await client.messages.create({ model: 'gpt-4.1-mini', max_tokens: 64, metadata: { user_id: 'end-user-7' }, messages: [{ role: 'user', content: 'Hi' }] });
    const [chat] = (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chat.body.user).toBe(upstream.body.metadata.user_id);
  });
});

/** A rate limit of the gateway, worded as Anthropic's 429 for the SDK, on every family. */
describe.each(TEST_DATABASES)('the Messages API under a rate limit (%s)', (database) => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway({ database, env: { GATEWAY_RATE_LIMIT_KEY_RPM: '1' } });
  });
  afterAll(() => t?.close());

  it.each(MODELS)('refuses the request over the limit with a RateLimitError ($model)', async ({ model }) => {
    const client = new Anthropic({ apiKey: await t.createKey(), baseURL: t.url, maxRetries: 0 });
    await client.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] });
    const err: any = await client.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(err.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
