import OpenAI from 'openai';
import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { parseSse } from '../../src/providers/sse-parser';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { readStreamedChat } from '../support/streamed-chat';

/**
 * Upstream answers that stretch the protocols, through the real gateway with
 * the openai SDK: an Anthropic stream that restarts its message mid tool
 * call, and an OpenAI-compatible upstream that counts cache misses
 * (DeepSeek style).
 */

/** Exact micro-USD for a quantity at a price in USD per million, rounded half up (the gateway's rule). */
function expectedMicroUsd(quantity: number, usdPerMillion: number): number {
  return Math.floor((quantity * Math.round(usdPerMillion * 1e6)) / 1e6 + 0.5);
}

/** gpt-4.1-mini's list prices, plus a cache_miss price of its own so that misses cannot pass for input. */
const MINI_PRICES = { input: 0.4, cache_read: 0.1, cache_miss: 0.27, output: 1.6 };

/** The default catalog on the simulator, with gpt-4.1-mini pricing cache misses apart. */
function configWithCacheMissPrice(): GatewayConfigInput {
  const base = loadGatewayConfig({}).config;
  const pricing = Object.fromEntries(Object.entries(MINI_PRICES).map(([dimension, usd]) => [dimension, usd.toFixed(2)]));
  return { ...base, models: base.models.map((m) => (m.id === 'gpt-4.1-mini' ? { ...m, pricing } : m)) };
}

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
];

describe.each(TEST_DATABASES)('upstream stream conformance (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: configWithCacheMissPrice() });
    key = await t.createKey({ name: 'stream-conformance' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  /** The Messages body the gateway sent for the last call, sent again to the simulator, as a whole answer or as raw stream events. */
  async function askSimulatorAgain(stream: boolean): Promise<Response> {
    const { requests } = await simulatorRequests(t);
    const sent = requests.filter((r) => r.path === '/v1/messages').at(-1)!.body;
    return fetch(`${t.simulatorUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ ...sent, stream }),
    });
  }

  it('a Claude stream that restarts mid tool call: one whole tool call, and the restarted message\'s usage alone', async () => {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const { data: stream, response } = await client.chat.completions
      .create({
        model: 'claude-sonnet-4-5', stream: true, stream_options: { include_usage: true }, tools,
        messages: [{ role: 'user', content: 'Weather in Paris? [sim restart_after=2 chunk=6]' }],
      })
      .withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    const { toolCalls: calls, finishReason: finish, usage } = await readStreamedChat(stream);
    expect([...calls.keys()]).toEqual([0]);
    const [call] = calls.values();
    expect(call).toEqual({ id: expect.stringMatching(/^toolu_01\w{22}$/), name: 'get_weather', arguments: expect.any(String) });
    expect(JSON.parse(call!.arguments)).toEqual({ city: expect.any(String) });
    expect(finish).toBe('tool_calls');

    // The upstream did restart: the same request streams two messages.
    const raw = await (await askSimulatorAgain(true)).text();
    const starts: string[] = [];
    for await (const event of parseSse((async function* () { yield raw; })())) if (event.event === 'message_start') starts.push(event.data);
    expect(starts).toHaveLength(2);

    // The simulator's figures for the answer: a whole answer to the same request counts the same.
    const whole = (await (await askSimulatorAgain(false)).json()) as { usage: { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number; output_tokens: number } };
    const promptTokens = whole.usage.input_tokens + whole.usage.cache_creation_input_tokens + whole.usage.cache_read_input_tokens;
    const outputTokens = whole.usage.output_tokens;
    expect(usage).toMatchObject({ prompt_tokens: promptTokens, completion_tokens: outputTokens });

    const { status, body } = await fetchUsageRecord(t, key, requestId);
    expect(status).toBe(200);
    expect(body.routing).toMatchObject({ status_code: 200, was_streaming: true });
    // Not the sum of the two messages: the abandoned one reported the same prompt and an output of 1.
    expect(body.usage).toMatchObject({ prompt_tokens: promptTokens, completion_tokens: outputTokens, measurement: { input: 'provider', output: 'provider' } });
    const quantities = Object.fromEntries(body.usage.dimensions.map((d: { name: string; quantity: number }) => [d.name, d.quantity]));
    expect(quantities).toMatchObject({ input: promptTokens, output: outputTokens });
    expect(body.billing.line_items.find((l: { dimension: string }) => l.dimension === 'output')).toEqual({
      dimension: 'output', quantity: outputTokens, unit_microusd: 15, amount_microusd: expectedMicroUsd(outputTokens, 15),
    });
  });

  it('an OpenAI-compatible upstream that counts cache misses: cache_miss_tokens for the client, a cache_miss dimension and line item at its own price', async () => {
    // Long enough for the simulator's automatic cache to report a cached prefix too.
    const prompt = `${'Summarise this passage please. '.repeat(200)} [sim cache_miss=300]`;
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: prompt }] })
      .withResponse();
    const details = data.usage!.prompt_tokens_details as { cached_tokens: number; cache_miss_tokens?: number; cache_write_tokens?: number };
    expect(details.cached_tokens).toBeGreaterThanOrEqual(1024);
    expect(details.cache_miss_tokens).toBe(300);
    expect(details.cache_write_tokens).toBe(0);
    const promptTokens = data.usage!.prompt_tokens;
    const completionTokens = data.usage!.completion_tokens;
    const cached = details.cached_tokens;
    const plainInput = promptTokens - cached - 300;
    expect(plainInput).toBeGreaterThan(0);

    const { body } = await fetchUsageRecord(t, key, response.headers.get('x-svc-request-id')!);
    expect(body.usage.dimensions).toEqual([
      { name: 'input', quantity: plainInput, unit: 'tokens' },
      { name: 'cache_read', quantity: cached, unit: 'tokens' },
      { name: 'cache_miss', quantity: 300, unit: 'tokens' },
      { name: 'output', quantity: completionTokens, unit: 'tokens' },
    ]);
    const items = body.billing.line_items;
    expect(items).toEqual([
      { dimension: 'input', quantity: plainInput, unit_microusd: 0.4, amount_microusd: expectedMicroUsd(plainInput, MINI_PRICES.input) },
      { dimension: 'cache_read', quantity: cached, unit_microusd: 0.1, amount_microusd: expectedMicroUsd(cached, MINI_PRICES.cache_read) },
      { dimension: 'cache_miss', quantity: 300, unit_microusd: 0.27, amount_microusd: expectedMicroUsd(300, MINI_PRICES.cache_miss) },
      { dimension: 'output', quantity: completionTokens, unit_microusd: 1.6, amount_microusd: expectedMicroUsd(completionTokens, MINI_PRICES.output) },
    ]);
    // 300 misses at 0.27, not at the input price of 0.40.
    expect(items[2].amount_microusd).toBe(81);
    expect(body.billing.amount_microusd).toBe(items.reduce((sum: number, l: { amount_microusd: number }) => sum + l.amount_microusd, 0));
    expect(body.provider_usage.raw_fields).toMatchObject({ prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: 300 });
  });

  it('the same cache misses on a stream: the usage chunk carries cache_miss_tokens, the record its dimension', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-4.1-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Say hi [sim cache_miss=4]' }] })
      .withResponse();
    let usage: OpenAI.Completions.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage!.prompt_tokens_details).toMatchObject({ cached_tokens: 0, cache_miss_tokens: 4 });
    const { body } = await fetchUsageRecord(t, key, response.headers.get('x-svc-request-id')!);
    const missItem = body.billing.line_items.find((l: { dimension: string }) => l.dimension === 'cache_miss');
    expect(missItem).toEqual({ dimension: 'cache_miss', quantity: 4, unit_microusd: 0.27, amount_microusd: expectedMicroUsd(4, MINI_PRICES.cache_miss) });
    expect(body.usage.dimensions.find((d: { name: string }) => d.name === 'input').quantity).toBe(usage!.prompt_tokens - 4);
  });
});
