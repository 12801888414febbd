import OpenAI from 'openai';
import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { startMcpServer, weatherTools, type TestMcpServer } from '../support/mcp-test-servers';
import { ADMIN_TOKEN, fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** A model served through the Responses bridge (its routes speak Anthropic's Messages API). */
const BRIDGED = 'claude-haiku-4-5';
/** A model whose Responses route is native (OpenAI's protocol). */
const NATIVE = 'gpt-4.1-mini';

let weather: TestMcpServer;

beforeAll(async () => {
  weather = await startMcpServer('weather', weatherTools);
});

afterAll(async () => {
  await weather.close();
});

function config(): GatewayConfigInput {
  const base = loadGatewayConfig({}).document as GatewayConfigInput;
  return { ...base, mcp: { servers: [{ name: 'weather', url: weather.url, private: true, price_per_call: '0.002' }] } };
}

describe.each(TEST_DATABASES)('the MCP tool loop the gateway runs for a model (%s)', (database) => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: config() });
  });

  afterAll(async () => {
    await t?.close();
  });

  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  /** A key of its own account, with a wallet topped up: what it was charged is what the wallet lost. */
  async function walletKey(name: string, extra: Record<string, unknown> = {}) {
    const accountId = (await admin('/api/admin/accounts', 'POST', { name })).body.id as string;
    const made = await admin('/api/admin/keys', 'POST', { name, account_id: accountId, ...extra });
    await admin(`/api/admin/accounts/${accountId}/wallet/top-ups`, 'POST', { amount_microusd: 10_000_000 });
    return { key: made.body.key as string, accountId, client: new OpenAI({ apiKey: made.body.key, baseURL: t.baseURL, maxRetries: 0 }) };
  }

  /** Every usage record of a key, through the admin-free GraphQL usage list. */
  async function recordsOf(key: string) {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ usageRecords(first: 50) { edges { node { id endpoint model billing { amountMicrousd } routing { statusCode } mcp { server tool outcome } } } } }' }),
    });
    const body = (await res.json()) as any;
    expect(body.errors).toBeUndefined();
    return body.data.usageRecords.edges.map((e: any) => e.node) as Array<{ id: string; endpoint: string; model: string; billing: { amountMicrousd: number }; routing: { statusCode: number }; mcp: { server: string; tool: string; outcome: string } | null }>;
  }

  async function charged(accountId: string): Promise<number> {
    const wallet = (await admin(`/api/admin/accounts/${accountId}/wallet`)).body;
    expect(wallet.held_microusd).toBe(0);
    return 10_000_000 - wallet.balance_microusd;
  }

  it('runs a bridged Responses call\'s MCP tool: the server is called, the answer lists the mcp_call before the message, each call and each model turn is its own record, summing to the charge', async () => {
    const { key, accountId, client } = await walletKey('loop-responses');
    const callsBefore = weather.calls.length;
    const { data: response, response: raw } = await client.responses.create({
      model: BRIDGED,
      input: 'Use weather__forecast for Paris, please.',
      tools: [{ type: 'mcp', server_label: 'weather', require_approval: 'never' }],
    }).withResponse();
    expect(weather.calls.slice(callsBefore)).toEqual(['forecast']);
    expect(response.status).toBe('completed');
    const types = response.output.map((item) => item.type);
    expect(types.filter((type) => type !== 'reasoning')).toEqual(['mcp_call', 'message']);
    const call = response.output.find((item) => item.type === 'mcp_call') as any;
    expect(call).toMatchObject({ server_label: 'weather', name: 'forecast', error: null, status: 'completed' });
    expect(call.output).toMatch(/^Sunny in /);
    expect(JSON.parse(call.arguments)).toHaveProperty('city');
    expect(response.output_text.length).toBeGreaterThan(0);

    const records = await recordsOf(key);
    const mcp = records.filter((r) => r.endpoint === '/mcp');
    const turns = records.filter((r) => r.endpoint === '/v1/responses');
    expect(mcp).toHaveLength(1);
    expect(mcp[0]).toMatchObject({ id: `req_${call.id.replace(/^mcp_/, '')}`, model: 'mcp:weather', mcp: { server: 'weather', tool: 'forecast', outcome: 'ok' }, billing: { amountMicrousd: 2000 } });
    expect(turns).toHaveLength(2);
    expect(turns.map((r) => r.id)).toContain(raw.headers.get('x-svc-request-id'));
    for (const turn of turns) {
      expect(turn).toMatchObject({ model: BRIDGED, routing: { statusCode: 200 } });
      expect(turn.billing.amountMicrousd).toBeGreaterThan(0);
    }
    expect(records).toHaveLength(3);
    expect(await charged(accountId)).toBe(records.reduce((sum, r) => sum + r.billing.amountMicrousd, 0));
    expect((await admin(`/api/admin/reconcile?account_id=${accountId}`)).body.ok).toBe(true);
  });

  it('runs a chat completion\'s MCP tool and lists the calls made on the final message', async () => {
    const { key, client } = await walletKey('loop-chat');
    const completion = await client.chat.completions.create({
      model: BRIDGED,
      messages: [{ role: 'user', content: 'What does weather__forecast say for Oslo?' }],
      tools: [{ type: 'mcp', server_label: 'weather', allowed_tools: ['forecast'] } as never],
    });
    const message = completion.choices[0].message as any;
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(message.tool_calls ?? []).toEqual([]);
    expect(message.content.length).toBeGreaterThan(0);
    expect(message.mcp_calls).toEqual([expect.objectContaining({ server_label: 'weather', name: 'forecast', error: null, output: expect.stringMatching(/^Sunny in /) })]);
    // Every turn's tokens are in the answer's usage: the second turn read the first's prompt and more.
    const records = await recordsOf(key);
    expect(records.map((r) => r.endpoint).sort()).toEqual(['/mcp', '/v1/chat/completions', '/v1/chat/completions']);
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
  });

  it('offers only the tools the key\'s allowlist and the request\'s allowed_tools leave', async () => {
    const { client } = await walletKey('loop-allowlist', { mcp_tools: ['weather__alerts'] });
    const completion = await client.chat.completions.create({
      model: BRIDGED,
      messages: [{ role: 'user', content: 'Use weather__forecast for Paris.' }],
      tools: [{ type: 'mcp', server_label: 'weather' } as never],
    });
    // Only alerts was offered: the model called it, and its tool error went back to the model.
    const calls = (completion.choices[0].message as any).mcp_calls;
    expect(calls).toEqual([expect.objectContaining({ name: 'alerts', output: null, error: expect.any(String) })]);
    const upstream = (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1/messages');
    const offered = upstream[upstream.length - 1].body.tools.map((tool: { name: string }) => tool.name);
    expect(offered).toEqual(['weather__alerts']);
  });

  it('refuses an unknown server, a client-chosen server URL, an approval it cannot ask for and a stream of several choices, before any model call, uncharged', async () => {
    const { key, client } = await walletKey('loop-refusals');
    const refusals: Array<[unknown, string, RegExp]> = [
      [{ type: 'mcp', server_label: 'nowhere' }, 'tools[0].server_label', /"nowhere"/],
      [{ type: 'mcp', server_label: 'weather', server_url: 'https://mcp.example.com' }, 'tools[0].server_url', /registered/],
      [{ type: 'mcp', server_label: 'weather', require_approval: 'always' }, 'tools[0].require_approval', /"never"/],
    ];
    for (const [tool, param, message] of refusals) {
      for (const call of [
        () => client.responses.create({ model: BRIDGED, input: 'Hi', tools: [tool as never] }),
        () => client.chat.completions.create({ model: BRIDGED, messages: [{ role: 'user', content: 'Hi' }], tools: [tool as never] }),
      ]) {
        const err: any = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(OpenAI.APIError);
        expect({ status: err.status, param: err.param }).toEqual({ status: 400, param });
        expect(err.message).toMatch(message);
        const record = await fetchUsageRecord(t, key, err.headers.get('x-svc-request-id'));
        expect(record.body).toMatchObject({ routing: { status_code: 400 }, billing: { amount_microusd: 0 } });
      }
    }
    // A stream answers one choice: the loop follows it.
    const streamed: any = await client.chat.completions.create({ model: BRIDGED, stream: true, n: 2, messages: [{ role: 'user', content: 'Hi' }], tools: [{ type: 'mcp', server_label: 'weather' } as never] }).catch((e: unknown) => e);
    expect({ status: streamed.status, param: streamed.param }).toEqual({ status: 400, param: 'n' });
    const unknownStreamed: any = await client.responses.create({ model: BRIDGED, stream: true, input: 'Hi', tools: [{ type: 'mcp', server_label: 'nowhere' }] }).catch((e: unknown) => e);
    expect({ status: unknownStreamed.status, param: unknownStreamed.param }).toEqual({ status: 400, param: 'tools[0].server_label' });
    expect((await recordsOf(key)).every((r) => r.billing.amountMicrousd === 0)).toBe(true);
  });

  it.each([BRIDGED, NATIVE])('streams a chat completion\'s MCP tool loop (%s): the final turn\'s text as it arrives, no MCP tool call leaked, each call made in a chunk, a record per turn and per call', async (model) => {
    const { key, accountId, client } = await walletKey(`loop-stream-${model}`);
    const callsBefore = weather.calls.length;
    const { data: stream, response } = await client.chat.completions.create({
      model, stream: true, stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'What does weather__forecast say for Oslo? [sim chunk=3 stream_args=1 words=12]' }],
      tools: [{ type: 'mcp', server_label: 'weather', allowed_tools: ['forecast'] } as never],
    }).withResponse();
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(weather.calls.slice(callsBefore)).toEqual(['forecast']);

    const requestId = response.headers.get('x-svc-request-id')!;
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set([`chatcmpl-${requestId.replace(/^req_/, '')}`]));
    expect(new Set(chunks.map((c) => c.model))).toEqual(new Set([model]));
    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta as OpenAI.ChatCompletionChunk.Choice.Delta & { mcp_calls?: unknown[] }));
    expect(deltas.filter((d) => d.tool_calls?.length)).toEqual([]);
    const madeAt = deltas.findIndex((d) => d.mcp_calls);
    expect(deltas.flatMap((d) => d.mcp_calls ?? [])).toEqual([expect.objectContaining({ server_label: 'weather', name: 'forecast', error: null, output: expect.stringMatching(/^Sunny in /) })]);
    // The final turn's text comes after the call, in many chunks: streamed as the upstream sent it.
    const finalText = deltas.slice(madeAt + 1).filter((d) => d.content);
    expect(finalText.length).toBeGreaterThan(1);
    const finishes = chunks.flatMap((c) => c.choices.filter((choice) => choice.finish_reason).map((choice) => choice.finish_reason));
    expect(finishes).toEqual(['stop']);
    expect(chunks.filter((c) => c.usage)).toHaveLength(1);
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);

    const records = await recordsOf(key);
    expect(records.map((r) => r.endpoint).sort()).toEqual(['/mcp', '/v1/chat/completions', '/v1/chat/completions']);
    expect(records.filter((r) => r.endpoint === '/mcp')).toEqual([expect.objectContaining({ mcp: { server: 'weather', tool: 'forecast', outcome: 'ok' }, billing: { amountMicrousd: 2000 } })]);
    const turns = records.filter((r) => r.endpoint === '/v1/chat/completions');
    expect(turns.map((r) => r.id)).toContain(requestId);
    // The usage chunk sums every turn's tokens, each turn's record its own.
    const turnTokens = await Promise.all(turns.map(async (r) => (await fetchUsageRecord(t, key, r.id)).body.usage));
    expect(last.usage!.prompt_tokens).toBe(turnTokens.reduce((sum, u) => sum + u.prompt_tokens, 0));
    expect(last.usage!.completion_tokens).toBe(turnTokens.reduce((sum, u) => sum + u.completion_tokens, 0));
    expect(await charged(accountId)).toBe(records.reduce((sum, r) => sum + r.billing.amountMicrousd, 0));
    expect((await admin(`/api/admin/reconcile?account_id=${accountId}`)).body.ok).toBe(true);

    // The SDK's own stream helper builds the final message from the same chunks.
    const helper = client.chat.completions.stream({
      model, messages: [{ role: 'user', content: 'What does weather__forecast say for Rome?' }],
      tools: [{ type: 'mcp', server_label: 'weather', allowed_tools: ['forecast'] } as never],
    });
    const final = await helper.finalChatCompletion();
    expect(final.choices[0].finish_reason).toBe('stop');
    expect(final.choices[0].message.tool_calls ?? []).toEqual([]);
    expect(final.choices[0].message.content!.length).toBeGreaterThan(0);
  });

  it('streams a call of the client\'s own function as usual (renumbered among what the client sees) and ends there, that turn\'s MCP call not run', async () => {
    const { client } = await walletKey('loop-stream-own');
    const callsBefore = weather.calls.length;
    const own = { type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } };
    const stream = await client.chat.completions.create({
      model: NATIVE, stream: true,
      messages: [{ role: 'user', content: 'Use weather__forecast for Paris. [sim tool_calls=2 stream_args=1]' }],
      tools: [own, { type: 'mcp', server_label: 'weather', allowed_tools: ['forecast'] } as never],
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const calls = chunks.flatMap((c) => c.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls.length).toBeGreaterThan(1);
    expect(new Set(calls.map((call) => call.index))).toEqual(new Set([0]));
    expect(calls.filter((call) => call.function?.name).map((call) => call.function!.name)).toEqual(['lookup']);
    expect(JSON.parse(calls.map((call) => call.function?.arguments ?? '').join(''))).toEqual(expect.any(Object));
    expect(chunks.flatMap((c) => c.choices.filter((choice) => choice.finish_reason).map((choice) => choice.finish_reason))).toEqual(['tool_calls']);
    expect(weather.calls.length).toBe(callsBefore);
  });

  it('streams a bridged Responses call\'s MCP tool loop: the mcp_call item with its events, then the message as it arrives, each turn and call recorded', async () => {
    const { key, accountId, client } = await walletKey('loop-stream-responses');
    const callsBefore = weather.calls.length;
    const stream = await client.responses.create({
      model: BRIDGED, stream: true,
      input: 'Use weather__forecast for Paris, please. [sim chunk=3 words=12]',
      tools: [{ type: 'mcp', server_label: 'weather', require_approval: 'never' }],
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(weather.calls.slice(callsBefore)).toEqual(['forecast']);
    const types = events.map((e) => e.type);
    expect(types).toContain('response.mcp_call.completed');
    expect(types.indexOf('response.mcp_call.completed')).toBeLessThan(types.indexOf('response.output_text.delta'));
    expect(types.filter((type) => type === 'response.output_text.delta').length).toBeGreaterThan(1);
    expect(types.filter((type) => type.startsWith('response.function_call'))).toEqual([]);
    const completed = events.find((e) => e.type === 'response.completed') as OpenAI.Responses.ResponseCompletedEvent;
    const output = completed.response.output.filter((item) => item.type !== 'reasoning');
    expect(output.map((item) => item.type)).toEqual(['mcp_call', 'message']);
    expect(output[0]).toMatchObject({ server_label: 'weather', name: 'forecast', error: null, status: 'completed', output: expect.stringMatching(/^Sunny in /) });
    const records = await recordsOf(key);
    expect(records.map((r) => r.endpoint).sort()).toEqual(['/mcp', '/v1/responses', '/v1/responses']);
    expect(await charged(accountId)).toBe(records.reduce((sum, r) => sum + r.billing.amountMicrousd, 0));
  });

  it('keeps refusing MCP tools on a native Responses route, whose upstream would be handed the server', async () => {
    const { client } = await walletKey('loop-native');
    const before = (await simulatorRequests(t)).requests.length;
    const err: any = await client.responses.create({ model: NATIVE, input: 'Hi', tools: [{ type: 'mcp', server_label: 'weather', require_approval: 'never' }] }).catch((e: unknown) => e);
    expect({ status: err.status, param: err.param }).toEqual({ status: 400, param: 'tools[0].type' });
    expect(err.message).toMatch(/native Responses route/);
    expect((await simulatorRequests(t)).requests.length).toBe(before);
  });
});
