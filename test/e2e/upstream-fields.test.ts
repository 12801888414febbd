import OpenAI from 'openai';
import { loadGatewayConfig } from '../../src/config/load-config';
import { simulatorRequests, startTestGateway, type TestGateway, usageRecordOf } from '../support/test-gateway';

/**
 * What reaches the operator's upstream account: a native Responses route
 * forwards only the fields the gateway understands, refuses what it could
 * neither bill nor attribute to the key (hosted tools, paid service tiers,
 * state stored upstream) before any upstream call, sends `store: false`
 * unless the operator allows storing, and every endpoint hands the upstream
 * a per-key identity for the client's end users and prompt caches.
 */
describe('the fields the upstream receives', () => {
  let t: TestGateway;
  let client: OpenAI;
  let other: OpenAI;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway();
    key = await t.createKey({ name: 'tenant-a' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    other = new OpenAI({ apiKey: await t.createKey({ name: 'tenant-b' }), baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());
  beforeEach(() => fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' }));

  const upstreamBodies = async (path: string) => (await simulatorRequests(t)).requests.filter((r) => r.path === path).map((r) => r.body);
  const uncharged = (requestId: string) =>
    usageRecordOf(t, key, requestId);

  it('a native route drops fields it does not know, forwards the prompt-cache retention and sends store false', async () => {
    await client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', store: true, service_tier: 'auto', made_up_field: 'x', prompt_cache_retention: '24h' } as never);
    const [body] = await upstreamBodies('/v1/responses');
    expect(body).toMatchObject({ model: 'gpt-4.1-mini', input: 'Hi', store: false, service_tier: 'auto', prompt_cache_retention: '24h' });
    expect(body).not.toHaveProperty('made_up_field');
  });

  it.each([
    ['a paid service tier', { service_tier: 'priority' }, 'service_tier'],
    ['a hosted web search', { tools: [{ type: 'web_search_preview' }] }, 'tools[0].type'],
    ['a file search over vector stores', { tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] }, 'tools[0].type'],
    ['image generation', { tools: [{ type: 'image_generation' }] }, 'tools[0].type'],
    ['the code interpreter', { tools: [{ type: 'code_interpreter', container: { type: 'auto' } }] }, 'tools[0].type'],
    ['a remote MCP server', { tools: [{ type: 'mcp', server_label: 'x', server_url: 'https://mcp.example.com' }] }, 'tools[0].type'],
    ['a stored prompt', { prompt: { id: 'pmpt_1' } }, 'prompt'],
    ['a conversation', { conversation: 'conv_1' }, 'conversation'],
    ['background mode', { background: true }, 'background'],
    ['hosted results', { include: ['file_search_call.results'] }, 'include[0]'],
    ['an item reference', { input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].type'],
  ])('a native route refuses %s before any upstream call, uncharged', async (_name, extra, param) => {
    const err: any = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', ...(extra as object) } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect({ status: err.status, code: err.code, param: err.param }).toEqual({ status: 400, code: 'unsupported_parameter', param });
    expect(err.message).toContain(param.replace(/\[\d+\].*/, ''));
    expect((await simulatorRequests(t)).requests).toHaveLength(0);
    const record = await uncharged(err.headers.get('x-svc-request-id'));
    expect({ status: record.routing.status_code, amount: record.billing.amount_microusd }).toEqual({ status: 400, amount: 0 });
  });

  it('a native route scopes user, safety_identifier and prompt_cache_key to the key, and shows the client its own values', async () => {
    const ids = { user: 'alice', safety_identifier: 'alice', prompt_cache_key: 'shared-prefix' };
    const answer = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', ...ids });
    expect(answer).toMatchObject(ids);
    expect(await client.responses.stream({ model: 'gpt-4.1-mini', input: 'Hi', ...ids }).finalResponse()).toMatchObject(ids);
    await other.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', ...ids });
    const [a1, a2, b] = await upstreamBodies('/v1/responses');
    for (const field of ['user', 'safety_identifier', 'prompt_cache_key'] as const) {
      expect(a1[field]).toMatch(/^[0-9a-f]{64}$/);
      expect(a2[field]).toBe(a1[field]);
      expect(b[field]).not.toBe(a1[field]);
    }
  });

  it('chat scopes user to the key, on OpenAI and as Anthropic metadata.user_id', async () => {
    await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], user: 'alice' });
    await other.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], user: 'alice' });
    await client.chat.completions.create({ model: 'claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }], user: 'alice' });
    const [a, b] = await upstreamBodies('/v1/chat/completions');
    const [claude] = await upstreamBodies('/v1/messages');
    expect(a.user).toMatch(/^[0-9a-f]{64}$/);
    expect(b.user).not.toBe(a.user);
    expect(claude.metadata.user_id).toBe(a.user);
  });

  it('the bridge scopes user to the key as chat does', async () => {
    await client.responses.create({ model: 'claude-haiku-4-5', input: 'Hi', user: 'alice', store: false, max_output_tokens: 50 });
    await client.chat.completions.create({ model: 'claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }], user: 'alice' });
    const [bridged, chat] = await upstreamBodies('/v1/messages');
    expect(bridged.metadata.user_id).toMatch(/^[0-9a-f]{64}$/);
    expect(bridged.metadata.user_id).toBe(chat.metadata.user_id);
  });

  it('chat hands prompt-cache controls to the upstreams that read them and drops them for the others', async () => {
    const breakpoint = { type: 'ephemeral', ttl: '1h' };
    const request = {
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Answer briefly.', cache_control: breakpoint }] },
        { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: breakpoint }] },
      ],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } }, cache_control: breakpoint }],
      tool_choice: 'none',
      prompt_cache_key: 'shared-prefix',
      prompt_cache_retention: '24h',
      max_tokens: 50,
    };
    for (const model of ['gpt-4.1-mini', 'claude-haiku-4-5', 'gemini-2.5-flash']) await client.chat.completions.create({ model, ...request } as never);
    await other.chat.completions.create({ model: 'gpt-4.1-mini', ...request } as never);
    await client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', prompt_cache_key: 'shared-prefix' });
    const { requests } = await simulatorRequests(t);
    const [openai, openaiOther] = requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body);
    const [claude] = await upstreamBodies('/v1/messages');
    const [gemini] = requests.filter((r) => r.path.startsWith('/v1beta/models/')).map((r) => r.body);
    const [native] = await upstreamBodies('/v1/responses');

    expect(openai.prompt_cache_key).toMatch(/^[0-9a-f]{64}$/);
    expect(openai).toMatchObject({ prompt_cache_key: native.prompt_cache_key, prompt_cache_retention: '24h' });
    expect(openaiOther.prompt_cache_key).not.toBe(openai.prompt_cache_key);
    expect(JSON.stringify(openai)).not.toContain('cache_control');

    expect(claude.system).toEqual([{ type: 'text', text: 'Answer briefly.', cache_control: breakpoint }]);
    expect(claude.messages[0].content).toEqual([{ type: 'text', text: 'Hi', cache_control: breakpoint }]);
    expect(claude.tools[0].cache_control).toEqual(breakpoint);
    for (const body of [claude, gemini]) {
      for (const field of ['prompt_cache_key', 'prompt_cache_retention', 'user']) expect(body).not.toHaveProperty(field);
    }
    expect(JSON.stringify(gemini)).not.toContain('cache_control');
    expect(JSON.stringify(gemini)).not.toContain('prompt_cache');
  });

  it('the bridge carries the prompt-cache key and retention into chat, which drops them for Anthropic', async () => {
    const answer = await client.responses.create({ model: 'claude-haiku-4-5', input: 'Hi', store: false, prompt_cache_key: 'shared-prefix', prompt_cache_retention: '24h' });
    expect(answer.status).toBe('completed');
    const [bridged] = await upstreamBodies('/v1/messages');
    expect(JSON.stringify(bridged)).not.toContain('prompt_cache');
  });

  it('embeddings scope user to the key', async () => {
    await client.embeddings.create({ model: 'text-embedding-3-small', input: 'Hi', user: 'alice' });
    await other.embeddings.create({ model: 'text-embedding-3-small', input: 'Hi', user: 'alice' });
    const [a, b] = await upstreamBodies('/v1/embeddings');
    expect(a.user).toMatch(/^[0-9a-f]{64}$/);
    expect(b.user).not.toBe(a.user);
  });
});

describe('a chat model served by xAI', () => {
  let t: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    const base = loadGatewayConfig({}).config;
    const gpt = base.models.find((m) => m.id === 'gpt-4.1-mini')!;
    const grok = { ...gpt, id: 'grok-4', owned_by: 'xai', endpoint_types: ['chat' as const], routes: gpt.routes.map((r) => ({ ...r, provider: 'xai', upstream_model: 'grok-4' })) };
    t = await startTestGateway({ config: { ...base, models: [...base.models, grok] } });
    client = new OpenAI({ apiKey: await t.createKey(), baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  it('gets the scoped prompt-cache key as its x-grok-conv-id header, and neither prompt-cache field nor cache_control in the body', async () => {
    const breakpoint = { type: 'ephemeral' };
    await client.chat.completions.create({
      model: 'grok-4',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: breakpoint }] }],
      prompt_cache_key: 'shared-prefix',
      prompt_cache_retention: '24h',
    } as never);
    const { requests } = await simulatorRequests(t);
    const sent = requests.find((r) => r.path === '/v1/chat/completions') as unknown as { headers: Record<string, string>; body: object };
    expect(sent.headers['x-grok-conv-id']).toMatch(/^[0-9a-f]{64}$/);
    expect(sent.body).toMatchObject({ model: 'grok-4' });
    expect(JSON.stringify(sent.body)).not.toMatch(/prompt_cache|cache_control/);
  });
});

describe('an operator who lets the upstream store responses', () => {
  let t: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ env: { GATEWAY_RESPONSES_UPSTREAM_STORE: 'true' } });
    client = new OpenAI({ apiKey: await t.createKey(), baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  it("gets the client's store as it was sent", async () => {
    await client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', store: true });
    const { requests } = await simulatorRequests(t);
    expect(requests.find((r) => r.path === '/v1/responses')!.body.store).toBe(true);
  });
});

describe('an operator who prices the priority tier', () => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    const base = loadGatewayConfig({}).config;
    // One micro-USD per token on top of the token prices.
    const models = base.models.map((m) => (m.id === 'gpt-4.1-mini' ? { ...m, pricing: { ...m.pricing, service_tier_priority: '1.00' } } : m));
    t = await startTestGateway({ config: { ...base, models } });
    key = await t.createKey();
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  const record = (requestId: string) =>
    usageRecordOf(t, key, requestId);

  it('serves it and bills every token under the tier as its own line item, whole or streamed', async () => {
    const { data, response } = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', service_tier: 'priority' }).withResponse();
    const streamed = client.responses.stream({ model: 'gpt-4.1-mini', input: 'Hi', service_tier: 'priority' });
    const final = await streamed.finalResponse();
    const { requests } = await simulatorRequests(t);
    expect(requests.filter((r) => r.path === '/v1/responses').map((r) => r.body.service_tier)).toEqual(['priority', 'priority']);
    for (const [requestId, usage] of [[response.headers.get('x-svc-request-id')!, data.usage!], [final.id.replace(/^resp_/, 'req_'), final.usage!]] as const) {
      const { billing } = await record(requestId);
      const tokens = usage.input_tokens + usage.output_tokens;
      expect(billing.line_items.find((l: any) => l.dimension === 'service_tier_priority')).toEqual({ dimension: 'service_tier_priority', quantity: tokens, unit_microusd: 1, amount_microusd: tokens });
      expect(billing.amount_microusd).toBe(billing.line_items.reduce((sum: number, l: any) => sum + l.amount_microusd, 0));
    }
  });

  it('still refuses a tier it does not price', async () => {
    const err: any = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', service_tier: 'scale' }).catch((e: unknown) => e);
    expect({ status: err.status, code: err.code, param: err.param }).toEqual({ status: 400, code: 'unsupported_parameter', param: 'service_tier' });
  });
});
