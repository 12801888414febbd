import { eventually } from '../support/eventually';
import OpenAI from 'openai';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** Exact micro-USD for a quantity at a price in USD per million, rounded half up (the gateway's rule). */
function expectedMicroUsd(quantity: number, usdPerMillion: number): number {
  return Math.floor((quantity * Math.round(usdPerMillion * 1e6)) / 1e6 + 0.5);
}

const waitFor = <T>(probe: () => Promise<T | undefined>) => eventually(probe, 'the gateway to catch up');

describe.each(TEST_DATABASES)('chat completions with the openai SDK (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'chat-e2e' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  it('answers without streaming and bills the provider-reported usage exactly', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Name three colours.' }] })
      .withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(data.id).toBe(`chatcmpl-${requestId.slice(4)}`);
    expect(data.model).toBe('gpt-4.1-mini');
    expect(data.choices[0].message.content!.length).toBeGreaterThan(0);
    expect(data.choices[0].finish_reason).toBe('stop');
    expect(data.usage!.prompt_tokens).toBeGreaterThan(0);

    const { status, body } = await fetchUsageRecord(t, key, requestId);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      object: 'usage.request',
      id: requestId,
      model: 'gpt-4.1-mini',
      endpoint: '/v1/chat/completions',
      usage: {
        prompt_tokens: data.usage!.prompt_tokens,
        completion_tokens: data.usage!.completion_tokens,
        total_tokens: data.usage!.total_tokens,
        measurement: { input: 'provider', output: 'provider' },
      },
      billing: { currency: 'USD', pricing_version: expect.any(Number) },
      routing: { status_code: 200, was_streaming: false, ttft_ms: null },
      provider_usage: { family: 'openai', raw_fields: { prompt_tokens: data.usage!.prompt_tokens } },
      log_id: `log_${requestId.slice(4)}`,
    });
    expect(body.routing).not.toHaveProperty('provider');
    const input = body.billing.line_items.find((l: any) => l.dimension === 'input');
    const output = body.billing.line_items.find((l: any) => l.dimension === 'output');
    expect(input).toEqual({ dimension: 'input', quantity: data.usage!.prompt_tokens, unit_microusd: 0.4, amount_microusd: expectedMicroUsd(data.usage!.prompt_tokens, 0.4) });
    expect(output).toEqual({ dimension: 'output', quantity: data.usage!.completion_tokens, unit_microusd: 1.6, amount_microusd: expectedMicroUsd(data.usage!.completion_tokens, 1.6) });
    const sum = body.billing.line_items.reduce((acc: number, l: any) => acc + l.amount_microusd, 0);
    expect(body.billing.amount_microusd).toBe(sum);
    expect(Number.isInteger(body.billing.amount_microusd)).toBe(true);
  });

  it('streams chunks, then a usage trailer with empty choices, then [DONE]', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-4.1-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Tell me a story [sim words=60]' }] })
      .withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    let text = '';
    let usageChunk: OpenAI.Chat.Completions.ChatCompletionChunk | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      expect(chunk.id).toBe(`chatcmpl-${requestId.slice(4)}`);
      expect(chunk.model).toBe('gpt-4.1-mini');
      if (chunk.usage) usageChunk = chunk;
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(chunks).toBeGreaterThan(3);
    expect(text.split(/\s+/).length).toBeGreaterThanOrEqual(50);
    expect(usageChunk!.choices).toEqual([]);
    expect(usageChunk!.usage!.completion_tokens).toBeGreaterThan(0);

    const { body } = await fetchUsageRecord(t, key, requestId);
    expect(body.routing).toMatchObject({ status_code: 200, was_streaming: true });
    expect(body.routing.ttft_ms).toEqual(expect.any(Number));
    expect(body.usage.completion_tokens).toBe(usageChunk!.usage!.completion_tokens);
    expect(body.usage.measurement).toEqual({ input: 'provider', output: 'provider' });
    expect(body.billing.amount_microusd).toBeGreaterThan(0);
  });

  it('omits the usage trailer when the client did not ask for it, yet still bills provider usage', async () => {
    const res = await fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const raw = await res.text();
    const events = raw.split('\n\n').filter(Boolean);
    expect(events[events.length - 1]).toBe('data: [DONE]');
    expect(raw).not.toContain('"usage":{');
    const { body } = await fetchUsageRecord(t, key, res.headers.get('x-svc-request-id')!);
    expect(body.usage.measurement.output).toBe('provider');
  });

  it('returns tool calls, whole and streamed, that parse as JSON arguments', async () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
    ];
    const whole = await client.chat.completions.create({ model: 'gpt-4.1', tools, tool_choice: 'required', messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    const call = whole.choices[0].message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(whole.choices[0].finish_reason).toBe('tool_calls');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toHaveProperty('city');

    const stream = await client.chat.completions.create({ model: 'gpt-4.1', tools, stream: true, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    let args = '';
    let name = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const d of chunk.choices[0]?.delta?.tool_calls ?? []) {
        name += d.function?.name ?? '';
        args += d.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toHaveProperty('city');
    expect(finish).toBe('tool_calls');

    const followUp = await client.chat.completions.create({
      model: 'gpt-4.1',
      tools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '{"temp_c": 21}' },
      ],
    });
    expect(followUp.choices[0].message.content).toBeTruthy();
  });

  it('forwards image parts and response_format to the upstream', async () => {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const res = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Describe as JSON' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }],
    });
    expect(() => JSON.parse(res.choices[0].message.content!)).not.toThrow();
    const { requests } = await simulatorRequests(t);
    const sent = requests.find((r) => r.path === '/v1/chat/completions')!.body;
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(sent.messages[0].content[1].image_url.url).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('keeps an upstream 429 with its Retry-After, and records the failure without charge', async () => {
    const { response } = await client.chat.completions
      .create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'x [sim status=429 retry_after=7]' }] })
      .withResponse()
      .catch((e) => ({ response: e }));
    const err = response as InstanceType<typeof OpenAI.APIError>;
    expect(err.status).toBe(429);
    expect(err.headers?.get('retry-after')).toBe('7');
    const requestId = err.headers?.get('x-svc-request-id');
    expect((err.error as any).request_id).toBe(requestId);
    const { body } = await fetchUsageRecord(t, key, requestId!);
    expect(body.routing.status_code).toBe(429);
    expect(body.billing.amount_microusd).toBe(0);
  });

  it('moves to the next route of a policy when the first fails before any byte', async () => {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const prompt = `fallback ${Date.now()} [sim status=503 fail_times=1]`;
    const { data, response } = await client.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: prompt }] }).withResponse();
    expect(data.model).toBe('fast');
    const { requests } = await simulatorRequests(t);
    const calls = requests.filter((r) => r.path === '/v1/chat/completions' || r.path === '/v1/messages').map((r) => [r.path, r.body.model]);
    expect(calls).toEqual([['/v1/chat/completions', 'gpt-4.1-mini'], ['/v1/messages', 'claude-haiku-4-5']]);
    const { body } = await fetchUsageRecord(t, key, response.headers.get('x-svc-request-id')!);
    expect(body.model).toBe('fast');
    expect(body.routing.status_code).toBe(200);
    // Priced as the model that answered: claude-haiku-4-5 input is $1.00 per million.
    expect(body.billing.line_items.find((l: any) => l.dimension === 'input').unit_microusd).toBe(1);
  });

  it('ends a cut-off stream with an error event, billing nothing and estimating usage locally', async () => {
    const res = await fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1-mini', stream: true, messages: [{ role: 'user', content: 'long one [sim cut_after=3 words=100]' }] }),
    });
    const raw = await res.text();
    expect(raw).not.toContain('[DONE]');
    const last = JSON.parse(raw.trim().split('\n\n').pop()!.slice('data: '.length));
    expect(last.error.code).toBe('upstream_stream_interrupted');
    const { body } = await fetchUsageRecord(t, key, res.headers.get('x-svc-request-id')!);
    expect(body.routing.status_code).toBe(502);
    expect(body.usage.measurement).toEqual({ input: 'local_estimate', output: 'local_estimate' });
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
    expect(body.billing.amount_microusd).toBe(0);
  });

  it.each([
    ['claude-haiku-4-5', 'anthropic'],
    ['gemini-2.5-flash', 'gemini'],
  ])('keeps the provider\'s prompt figures of a %s stream cut off mid-way, estimating only the output', async (model, family) => {
    const res = await fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'long one [sim cut_after=3 words=100]' }] }),
    });
    expect(await res.text()).not.toContain('[DONE]');
    const { body } = await fetchUsageRecord(t, key, res.headers.get('x-svc-request-id')!);
    expect(body.usage.measurement).toEqual({ input: 'provider', output: 'local_estimate' });
    expect(body.provider_usage.family).toBe(family);
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
    expect(body.billing.amount_microusd).toBe(0);
  });

  it('aborts the upstream call when the client disconnects, and bills the tokens produced', async () => {
    const before = (await simulatorRequests(t)).aborted;
    const controller = new AbortController();
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-4.1-mini', stream: true, messages: [{ role: 'user', content: 'slow [sim pace=40 words=400]' }] }, { signal: controller.signal })
      .withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    let received = 0;
    // The SDK ends the iteration quietly on abort; what matters is what the gateway did. On a loaded
    // machine several chunks arrive in one read and the SDK still hands out those it has: stop reading.
    await (async () => {
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta?.content && ++received === 3) {
          controller.abort();
          break;
        }
      }
    })().catch(() => undefined);
    expect(received).toBe(3);
    await waitFor(async () => ((await simulatorRequests(t)).aborted > before ? true : undefined));
    const record = await waitFor(async () => {
      const r = await fetchUsageRecord(t, key, requestId);
      return r.status === 200 ? r.body : undefined;
    });
    expect(record.routing.status_code).toBe(499);
    expect(record.usage.measurement.output).toBe('local_estimate');
    expect(record.billing.amount_microusd).toBeGreaterThan(0);
  });

  it('bills the prompt of a non-streaming call the client abandoned: the upstream received it', async () => {
    const own = await t.createKey({ name: 'abandons' });
    const controller = new AbortController();
    const sent = fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST', signal: controller.signal,
      headers: { authorization: `Bearer ${own}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'a long question the client stops waiting for [sim latency=3000]' }] }),
    }).catch(() => undefined);
    // The client leaves once the upstream has the prompt (and before the 3 s answer).
    await eventually(async () => ((await simulatorRequests(t)).requests.some((r) => JSON.stringify(r.body).includes('a long question the client stops waiting for')) ? true : undefined), 'the upstream to receive the prompt');
    controller.abort();
    await sent;
    const keyId = (await t.gateway.services.keys.authenticate(own))!.keyId;
    const row = await waitFor(async () => (await t.gateway.db.prisma.usageRecord.findFirst({ where: { keyId } })) ?? undefined);
    expect(row).toMatchObject({ statusCode: 499, errorCode: 'client_closed_request', completionTokens: 0 });
    expect(row.promptTokens).toBeGreaterThan(10);
    expect((await fetchUsageRecord(t, own, row.id)).body.usage.measurement).toEqual({ input: 'local_estimate', output: 'local_estimate' });
    expect(row.amountMicrousd).toBeGreaterThan(0n);
  });

  it('shows a usage record only to the key that made the request', async () => {
    const other = await t.createKey({ name: 'other' });
    const { response } = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'mine' }] }).withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    expect((await fetchUsageRecord(t, key, requestId)).status).toBe(200);
    const foreign = await fetchUsageRecord(t, other, requestId);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('usage_record_not_found');
  });
});

describe('fallback past a route that cannot express the request', () => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('skips the Claude route that has no seed and answers from the next one', async () => {
    t = await startTestGateway({ database: 'pglite' });
    const key = await t.createKey();
    const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    // fast = gpt-4.1-mini, claude-haiku-4-5, gemini-2.5-flash: the first fails once, Claude cannot take `seed`.
    const answer = await client.chat.completions.create({ model: 'fast', seed: 7, messages: [{ role: 'user', content: `seeded ${Date.now()} [sim status=503 fail_times=1]` }] });
    expect(answer.choices[0].message.content).toBeTruthy();
    const { requests } = await simulatorRequests(t);
    expect(requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1beta/models/gemini-2.5-flash:generateContent']);
  });
});
