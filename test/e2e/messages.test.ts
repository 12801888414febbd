import Anthropic from '@anthropic-ai/sdk';
import { ADMIN_TOKEN, fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway, usageRecordOf } from '../support/test-gateway';

/** A one-pixel PNG and a small PDF: enough for every upstream's own checks. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n').toString('base64');

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** A Claude model (served natively), an OpenAI model and a Gemini model (through the chat core), each with the upstream path the simulator logs. */
const MODELS = [
  { model: 'claude-sonnet-4-6', upstreamPath: '/v1/messages' },
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
    usageRecordOf(t, key, requestId);
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

    it('ends a stream that fails after it started with Anthropic\'s error event, recorded once', async () => {
      const stream = client.messages.stream({ model, max_tokens: 2048, messages: [{ role: 'user', content: 'Tell me a long story [sim stream_error=2 chunk=4]' }] });
      const types: string[] = [];
      const err: any = await (async () => {
        for await (const event of stream) types.push(event.type);
      })().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.APIError);
      expect(err.error).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.any(String) } });
      expect(types[0]).toBe('message_start');
      expect(types).not.toContain('message_stop');
      const record = await recordOf(gatewayRequestId(stream.request_id));
      expect(record.endpoint).toBe('/v1/messages');
      expect(record.routing.status_code).toBeGreaterThanOrEqual(500);
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

    it('takes images and documents, each in the upstream\'s own form', async () => {
      await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
      const message = await client.messages.create({
        model, max_tokens: 2048,
        messages: [{
          role: 'user',
          content: [
            { type: 'text', text: 'What do these show?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Plain notes' }, title: 'notes' },
          ],
        }],
      });
      expect(message.content.some((b) => b.type === 'text')).toBe(true);
      const [upstream] = (await simulatorRequests(t)).requests.filter((r) => r.path === upstreamPath);
      const sent = JSON.stringify(upstream!.body);
      expect(sent).toContain(PNG);
      expect(sent).toContain(PDF);
      expect(sent).toContain('Plain notes');
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
    const params = { model: 'claude-sonnet-4-6', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools: [weatherTool] };
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
    expect(upstream.body.model).toBe('claude-sonnet-4-6');
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
    const message = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, metadata: { user_id: 'end-user-7' }, messages: [{ role: 'user', content: 'Hi' }] });
    const [upstream] = (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1/messages');
    expect(upstream.body.metadata.user_id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(message)).not.toContain(upstream.body.metadata.user_id);
    await client.messages.create({ model: 'gpt-4.1-mini', max_tokens: 64, metadata: { user_id: 'end-user-7' }, messages: [{ role: 'user', content: 'Hi' }] });
    const [chat] = (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chat.body.user).toBe(upstream.body.metadata.user_id);
  });
});

/**
 * The bill: the same upstream bytes (a recorded Anthropic answer, replayed)
 * give the same usage record and amount through /v1/messages as through
 * /v1/chat/completions; cache figures keep Anthropic's meaning in the answer.
 */
describe.each(TEST_DATABASES)('the Messages API bill (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: Anthropic;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'bill' });
    client = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  const recordOf = (requestId: string) =>
    usageRecordOf(t, key, requestId);

  async function chatCompletion(body: object): Promise<string> {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    await res.text();
    return res.headers.get('x-svc-request-id')!;
  }

  const billed = (record: any) => ({ usage: record.usage, amount: record.billing.amount_microusd, lineItems: record.billing.line_items, provider: record.provider_usage });

  it.each([
    ['a whole answer', 'text', false],
    ['a streamed answer with thinking', 'thinking', true],
  ])('bills %s exactly as chat completions does', async (_name, recording, stream) => {
    const prompt = `Hello [sim replay=${recording}]`;
    const thinking = stream ? { thinking: { type: 'enabled' as const, budget_tokens: 1024 } } : {};
    const viaMessages = stream
      ? (await client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 2048, ...thinking, messages: [{ role: 'user', content: prompt }] }).withResponse()).response
      : (await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 2048, messages: [{ role: 'user', content: prompt }] }).withResponse()).response;
    const messagesRecord = await recordOf(viaMessages.headers.get('x-svc-request-id')!);
    const chatId = await chatCompletion({
      model: 'claude-sonnet-4-6', max_tokens: 2048, messages: [{ role: 'user', content: prompt }],
      ...(stream ? { stream: true, reasoning: { max_tokens: 1024 } } : {}),
    });
    const chatRecord = await recordOf(chatId);
    expect(messagesRecord.endpoint).toBe('/v1/messages');
    expect(chatRecord.endpoint).toBe('/v1/chat/completions');
    expect(billed(messagesRecord)).toEqual(billed(chatRecord));
    expect(messagesRecord.billing.amount_microusd).toBeGreaterThan(0);
  });

  it('answers cache reads and writes in Anthropic\'s meaning, and bills every prompt token once', async () => {
    const system = [{ type: 'text' as const, text: 'You review code carefully. '.repeat(400), cache_control: { type: 'ephemeral' as const } }];
    const ask = () => client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, system, messages: [{ role: 'user', content: 'Review this' }] }).withResponse();
    const first = await ask();
    expect(first.data.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    const second = await ask();
    const usage = second.data.usage;
    expect(usage.cache_read_input_tokens).toBe(first.data.usage.cache_creation_input_tokens);
    expect(usage.input_tokens).toBeLessThan(usage.cache_read_input_tokens!);
    const record = await recordOf(second.response.headers.get('x-svc-request-id')!);
    expect(record.usage.prompt_tokens).toBe(usage.input_tokens + usage.cache_read_input_tokens! + usage.cache_creation_input_tokens!);
    const read = record.billing.line_items.find((l: any) => l.dimension === 'cache_read');
    expect(read.quantity).toBe(usage.cache_read_input_tokens);
  });
});

/** An account under spend control: the hold before a Messages call, its settlement, and a refusal the wallet cannot cover; Idempotency-Key honoured. */
describe.each(TEST_DATABASES)('the Messages API under spend control (%s)', (database) => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway({ database });
  });
  afterAll(() => t?.close());

  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  async function fundedAccount(name: string, microusd: number) {
    const id = (await admin('/api/admin/accounts', 'POST', { name })).body.id as string;
    const key = (await admin('/api/admin/keys', 'POST', { name: `${name}-key`, account_id: id })).body.key as string;
    expect((await admin(`/api/admin/accounts/${id}/wallet/top-ups`, 'POST', { amount_microusd: microusd })).status).toBe(201);
    return { id, key, client: new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 }) };
  }

  it.each(['claude-sonnet-4-6', 'gemini-2.5-flash'])('holds before a call to %s and settles at the record\'s amount', async (model) => {
    const a = await fundedAccount(`settle-${model}`, 1_000_000);
    const { response } = await a.client.messages.create({ model, max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] }).withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    const record = (await fetchUsageRecord(t, a.key, requestId)).body;
    const charged = record.billing.amount_microusd as number;
    expect(charged).toBeGreaterThan(0);
    const mine = (await admin(`/api/admin/accounts/${a.id}/ledger`)).body.data.filter((e: { request_id: string }) => e.request_id === requestId);
    const hold = mine.find((e: { kind: string }) => e.kind === 'hold');
    expect(-hold.amount_microusd).toBeGreaterThanOrEqual(charged);
    expect(mine.find((e: { kind: string }) => e.kind === 'settle')).toMatchObject({ hold_id: hold.id, charged_microusd: charged });
    expect((await admin(`/api/admin/accounts/${a.id}/wallet`)).body).toMatchObject({ balance_microusd: 1_000_000 - charged, held_microusd: 0 });
  });

  it('refuses a call the wallet cannot cover as a billing_error, before any upstream call', async () => {
    const a = await fundedAccount('broke', 50);
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const err: any = await a.client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4_000, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err.status).toBe(402);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    expect((await simulatorRequests(t)).requests).toHaveLength(0);
  });

  it('answers a retry with the same Idempotency-Key with the first answer', async () => {
    const client = new Anthropic({ apiKey: await t.createKey(), baseURL: t.url, maxRetries: 0 });
    const ask = () => client.messages.create({ model: 'gpt-4.1-mini', max_tokens: 64, messages: [{ role: 'user', content: 'Once' }] }, { headers: { 'Idempotency-Key': 'messages-once-1' } });
    const first = await ask();
    const again = await ask();
    expect(again).toEqual(first);
  });
});

/**
 * What a native route forwards: only the fields the gateway knows; what
 * costs money it does not bill, or names state on the upstream account, is
 * refused by name before any upstream call.
 */
describe.each(TEST_DATABASES)('the Messages API\'s native fields (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: Anthropic;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'native' });
    client = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
  });
  afterAll(() => t?.close());
  beforeEach(() => fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' }));

  const base = { model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };
  const upstreamBodies = async () => (await simulatorRequests(t)).requests.filter((r) => r.path.startsWith('/v1/messages')).map((r) => r.body as any);

  it('drops fields it does not know, keeps cache_control and sends the route\'s model', async () => {
    await client.messages.create({ ...base, made_up_field: 'x', inference_geo: 'us', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral', ttl: '1h' } }] }] } as never);
    const [body] = await upstreamBodies();
    expect(body).not.toHaveProperty('made_up_field');
    expect(body).not.toHaveProperty('inference_geo');
    expect(body.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(body.model).toBe('claude-sonnet-4-6');
  });

  it.each([
    ['a server web search', { tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] }, 'tools[0].type'],
    ['code execution', { tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] }, 'tools[0].type'],
    ['remote MCP servers', { mcp_servers: [{ type: 'url', url: 'https://mcp.example.com', name: 'x' }] }, 'mcp_servers'],
    ['a container', { container: 'container_1' }, 'container'],
    ['the Priority Tier', { service_tier: 'auto' }, 'service_tier'],
    ['a file stored upstream', { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'file_1' } }] }] }, 'messages[0].content[0].source'],
    ['a server tool result', { messages: [{ role: 'user', content: [{ type: 'web_search_tool_result', tool_use_id: 'x', content: [] }] }] }, 'messages[0].content[0].type'],
  ])('refuses %s by name, before any upstream call, uncharged', async (_name, extra, param) => {
    const err: any = await client.messages.create({ ...base, ...(extra as object) } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.error.error.type).toBe('invalid_request_error');
    expect(err.error.error.message).toContain(param);
    expect(await upstreamBodies()).toHaveLength(0);
    const record = await usageRecordOf(t, key, err.requestID);
    expect(record).toMatchObject({ routing: { status_code: 400 }, billing: { amount_microusd: 0 } });
  });

  it('refuses a beta that changes prices, and forwards one that does not', async () => {
    const err: any = await client.messages.create(base, { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.error.error.message).toContain('context-1m-2025-08-07');
    await client.messages.create(base, { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14,some-unknown-beta' } });
    const [logged] = (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1/messages') as Array<{ headers?: Record<string, string> }>;
    expect(logged!.headers?.['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
  });
});

/** Bad input on purpose: every refusal is an Anthropic-shaped 4xx, never a 500. */
describe.each(TEST_DATABASES)('the Messages API on bad input (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, env: { GATEWAY_MAX_BODY_BYTES: String(256 * 1024) } });
    key = await t.createKey();
  });
  afterAll(() => t?.close());

  const post = (path: string, body: string) =>
    fetch(`${t.url}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
  const message = (extra: object) => JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }], ...extra });

  it.each([
    ['malformed JSON', '/v1/messages', '{"model": "claude-sonnet-4-6", ', 400, 'invalid_request_error'],
    ['a body that is not an object', '/v1/messages', '[1, 2]', 400, 'invalid_request_error'],
    ['a missing max_tokens', '/v1/messages', JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }] }), 400, 'invalid_request_error'],
    ['an unknown model', '/v1/messages', message({ model: 'claude-nine' }), 404, 'not_found_error'],
    ['an unknown model to count', '/v1/messages/count_tokens', JSON.stringify({ model: 'claude-nine', messages: [{ role: 'user', content: 'Hi' }] }), 404, 'not_found_error'],
    ['max_tokens of the wrong type', '/v1/messages', message({ max_tokens: '64' }), 400, 'invalid_request_error'],
    ['messages of the wrong type', '/v1/messages', message({ messages: 'Hi' }), 400, 'invalid_request_error'],
    ['a role that does not exist', '/v1/messages', message({ messages: [{ role: 'system', content: 'Hi' }] }), 400, 'invalid_request_error'],
    ['a block without its fields', '/v1/messages', message({ messages: [{ role: 'user', content: [{ type: 'image' }] }] }), 400, 'invalid_request_error'],
    ['a thinking budget of the wrong type', '/v1/messages', message({ thinking: { type: 'enabled', budget_tokens: 'lots' } }), 400, 'invalid_request_error'],
    ['a tool_choice naming no tool', '/v1/messages', message({ tool_choice: { type: 'tool', name: 'nope' } }), 400, 'invalid_request_error'],
    ['a tool without a schema', '/v1/messages', message({ tools: [{ name: 'x' }] }), 400, 'invalid_request_error'],
    ['a text block without its text', '/v1/messages/count_tokens', JSON.stringify({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: [{ type: 'text' }] }] }), 400, 'invalid_request_error'],
    ['an oversized body', '/v1/messages', message({ system: 'x'.repeat(300 * 1024) }), 413, 'request_too_large'],
  ])('%s', async (_name, path, body, status, type) => {
    const res = await post(path, body);
    expect(res.status).toBe(status);
    const json = (await res.json()) as any;
    expect(json).toEqual({ type: 'error', error: { type, message: expect.any(String) }, request_id: res.headers.get('x-svc-request-id') });
    expect(res.headers.get('request-id')).toBe(res.headers.get('x-svc-request-id'));
  });

  it('answers an unknown method on the path in Anthropic\'s shape', async () => {
    const res = await fetch(`${t.url}/v1/messages`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(405);
    expect(((await res.json()) as any).type).toBe('error');
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
