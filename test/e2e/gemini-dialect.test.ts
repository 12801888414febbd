import { geminiClient, genai, type Content, type GenerateContentResponse, type GoogleGenAI } from '../support/gemini-client';
import { loadGatewayConfig } from '../../src/config/load-config';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway, usageRecordOf } from '../support/test-gateway';

/**
 * The Gemini API's dialect through the unchanged Google Gen AI SDK, with its
 * base URL set to the gateway: a Gemini model served natively, an OpenAI
 * and a Claude model through the chat core, embeddings through the
 * embeddings service, and every refusal in google.rpc.Status shape.
 */
describe.each(TEST_DATABASES)('the Gemini dialect with @google/genai (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let ai: GoogleGenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'gemini-dialect' });
    ai = geminiClient(key, t.url);
  });
  afterAll(() => t?.close());

  const record = (requestId: string) =>
    usageRecordOf(t, key, requestId);
  const requestIdOf = (response: { responseId?: string }) => response.responseId!;
  const upstream = async (fragment: string) => (await simulatorRequests(t)).requests.filter((r) => r.path.includes(fragment));

  const weather = { functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] } as never;

  describe.each([
    ['gemini-2.5-flash', 'native', ':generateContent'],
    ['gpt-4.1-mini', 'through the chat core', '/chat/completions'],
    ['claude-sonnet-4-5', 'through the chat core', '/messages'],
  ])('%s (%s)', (model, _how, upstreamPath) => {
    it('generates, with usage in Gemini\'s meaning and one usage record under the Gemini path', async () => {
      const response = await ai.models.generateContent({ model, contents: 'Say hello', config: { maxOutputTokens: 3000 } });
      expect(response.text).toEqual(expect.any(String));
      expect(response.text!.length).toBeGreaterThan(0);
      expect(response.modelVersion).toBe(model);
      expect(response.responseId).toMatch(/^req_/);
      expect(response.candidates![0]!.finishReason).toBe('STOP');
      const usage = response.usageMetadata!;
      expect(usage.promptTokenCount).toBeGreaterThan(0);
      expect(usage.totalTokenCount).toBe(usage.promptTokenCount! + (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0));
      const r = await record(requestIdOf(response));
      expect(r.endpoint).toBe('/v1beta/models/{model}:generateContent');
      expect(r.routing.status_code).toBe(200);
      expect(r.usage.prompt_tokens).toBe(usage.promptTokenCount);
      expect(r.usage.completion_tokens).toBe((usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0));
      expect(r.billing.amount_microusd).toBeGreaterThan(0);
      expect((await upstream(upstreamPath)).length).toBeGreaterThan(0);
    });

    it('streams with generateContentStream; the last chunk has the finish reason and the usage', async () => {
      const chunks: GenerateContentResponse[] = [];
      for await (const chunk of await ai.models.generateContentStream({ model, contents: 'Tell me a short story', config: { maxOutputTokens: 3000 } })) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(1);
      const text = chunks.map((c) => c.text ?? '').join('');
      expect(text.length).toBeGreaterThan(0);
      const last = chunks.at(-1)!;
      expect(last.candidates![0]!.finishReason).toBe('STOP');
      expect(last.usageMetadata!.promptTokenCount).toBeGreaterThan(0);
      expect(chunks.every((c) => c.modelVersion === model && c.responseId === chunks[0]!.responseId)).toBe(true);
      const r = await record(last.responseId!);
      expect(r.endpoint).toBe('/v1beta/models/{model}:streamGenerateContent');
      expect(r.routing.was_streaming).toBe(true);
      expect(r.usage.prompt_tokens).toBe(last.usageMetadata!.promptTokenCount);
    });

    it('calls a function and takes its result back, the reasoning state intact', async () => {
      const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Paris?' }] }];
      const thinking = model === 'claude-sonnet-4-5' ? { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true }, maxOutputTokens: 4096 } : {};
      const first = await ai.models.generateContent({ model, contents, config: { tools: [weather], ...thinking } });
      const call = first.functionCalls?.[0];
      expect(call?.name).toBe('get_weather');
      expect(call?.args).toEqual(expect.any(Object));
      const modelTurn = first.candidates![0]!.content!;
      contents.push(modelTurn, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { forecast: 'sunny' } } }] });
      await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
      const second = await ai.models.generateContent({ model, contents, config: { tools: [weather], ...thinking } });
      expect(second.text).toEqual(expect.any(String));
      const [sent] = await upstream(upstreamPath);
      if (model.startsWith('gemini')) {
        // Native: the model turn goes back as the client sent it, signature and all.
        expect(sent!.body.contents[1]).toEqual(JSON.parse(JSON.stringify(modelTurn)));
      } else if (model.startsWith('gpt')) {
        const assistant = sent!.body.messages.find((m: { role: string }) => m.role === 'assistant');
        const tool = sent!.body.messages.find((m: { role: string }) => m.role === 'tool');
        expect(tool.tool_call_id).toBe(assistant.tool_calls[0].id);
        expect(JSON.parse(tool.content)).toEqual({ forecast: 'sunny' });
      } else {
        const assistant = sent!.body.messages.find((m: { role: string }) => m.role === 'assistant');
        const toolUse = assistant.content.find((b: { type: string }) => b.type === 'tool_use');
        const thinkingBlock = assistant.content.find((b: { type: string }) => b.type === 'thinking');
        expect(thinkingBlock?.signature).toEqual(expect.any(String));
        const result = sent!.body.messages.at(-1).content.find((b: { type: string }) => b.type === 'tool_result');
        expect(result.tool_use_id).toBe(toolUse.id);
      }
    });

    it('counts tokens, free, with one uncharged usage record', async () => {
      const counted = await ai.models.countTokens({ model, contents: 'How many tokens is this sentence?' });
      expect(counted.totalTokens).toBeGreaterThan(0);
      const r = await record(counted.sdkHttpResponse!.headers!['x-svc-request-id']!);
      expect(r.endpoint).toBe('/v1beta/models/{model}:countTokens');
      expect({ status: r.routing.status_code, amount: r.billing.amount_microusd }).toEqual({ status: 200, amount: 0 });
    });
  });

  it.each(['gemini-embedding-001', 'text-embedding-3-small'])('embeds with models.embedContent on %s', async (model) => {
    const response = await ai.models.embedContent({ model, contents: ['first text', 'second text'], config: { outputDimensionality: 256 } });
    expect(response.embeddings!.map((e) => e.values!.length)).toEqual([256, 256]);
    const one = await ai.models.embedContent({ model, contents: 'first text', config: { outputDimensionality: 256 } });
    one.embeddings![0]!.values!.forEach((x, i) => expect(response.embeddings![0]!.values![i]).toBeCloseTo(x, 5));
    const r = await record(response.sdkHttpResponse!.headers!['x-svc-request-id']!);
    expect(r.endpoint).toBe('/v1beta/models/{model}:batchEmbedContents');
    expect(r.usage.prompt_tokens).toBeGreaterThan(0);
    expect(r.billing.amount_microusd).toBeGreaterThanOrEqual(0);
  });

  it('hands Gemini routes the task type and titles of an embedding request', async () => {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    await ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['a document'], config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'Doc' } });
    const [sent] = await upstream(':batchEmbedContents');
    expect(sent!.body.requests[0]).toMatchObject({ model: 'models/gemini-embedding-001', taskType: 'RETRIEVAL_DOCUMENT', title: 'Doc', content: { parts: [{ text: 'a document' }] } });
  });

  it('counts a whole generateContentRequest natively, naming the upstream model in it', async () => {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const res = await fetch(`${t.url}/v1beta/models/gemini-2.5-flash:countTokens`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key },
      body: JSON.stringify({ generateContentRequest: { contents: [{ parts: [{ text: 'Count me' }] }], systemInstruction: { parts: [{ text: 'Be brief.' }] } } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(0);
    const [sent] = await upstream(':countTokens');
    expect(sent!.body.generateContentRequest).toMatchObject({ model: 'models/gemini-2.5-flash', systemInstruction: { parts: [{ text: 'Be brief.' }] } });
  });

  it('lists the key\'s models in Gemini\'s Model shape (models.list and models.get)', async () => {
    const limited = geminiClient(await t.createKey({ name: 'two-models', models: ['claude-haiku-4-5', 'gemini-embedding-001'] }), t.url);
    const names: string[] = [];
    for await (const model of await limited.models.list()) names.push(model.name!);
    expect(names.sort()).toEqual(['models/claude-haiku-4-5', 'models/gemini-embedding-001']);
    const claude = await limited.models.get({ model: 'claude-haiku-4-5' });
    expect(claude).toMatchObject({ name: 'models/claude-haiku-4-5', inputTokenLimit: expect.any(Number), supportedActions: ['generateContent', 'streamGenerateContent', 'countTokens'] });
    const err = await limited.models.get({ model: 'gpt-4.1-mini' }).catch((e: unknown) => e);
    expect((err as InstanceType<typeof genai.ApiError>).status).toBe(404);
  });

  it('refuses an Idempotency-Key on a streaming method, and replays a plain one', async () => {
    const post = (method: string, idem: string) =>
      fetch(`${t.url}/v1beta/models/gpt-4.1-mini:${method}`, {
        method: 'POST',
        headers: { 'x-goog-api-key': key, 'content-type': 'application/json', 'idempotency-key': idem },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }),
      });
    const streamed = await post('streamGenerateContent?alt=sse', 'stream-key-1');
    expect(streamed.status).toBe(400);
    expect(((await streamed.json()) as { error: { message: string } }).error.message).toMatch(/stream cannot be replayed/);
    const first = await post('generateContent', 'plain-key-1');
    const again = await post('generateContent', 'plain-key-1');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
  });

  it('bills exactly as chat completions do for the same upstream answer', async () => {
    const prompt = 'How many r are in strawberry? [sim replay=text]';
    const gemini = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: prompt });
    const chat = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: prompt }] }),
    });
    expect(chat.status).toBe(200);
    // The recorded answer's own usage, in Gemini's meaning.
    expect(gemini.usageMetadata).toMatchObject({ promptTokenCount: 9, candidatesTokenCount: 28, thoughtsTokenCount: 244, totalTokenCount: 281 });
    const [viaGemini, viaChat] = [await record(gemini.responseId!), await record(chat.headers.get('x-svc-request-id')!)];
    expect(viaGemini.usage).toEqual(viaChat.usage);
    expect(viaGemini.billing.line_items).toEqual(viaChat.billing.line_items);
    expect(viaGemini.billing.amount_microusd).toBe(viaChat.billing.amount_microusd);
    expect(viaGemini.usage.completion_tokens).toBe(28 + 244);
  });

  it.each(['gpt-4.1-mini', 'gemini-2.5-flash'])('ends a stream on %s that fails after it began with a google.rpc.Status event the SDK throws', async (model) => {
    const chunks: GenerateContentResponse[] = [];
    const err = await (async () => {
      for await (const chunk of await ai.models.generateContentStream({ model, contents: 'Tell a long story [sim stream_error=2]', config: { maxOutputTokens: 3000 } })) chunks.push(chunk);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(genai.ApiError);
    expect((err as Error).message).toMatch(/"status":"(UNAVAILABLE|INTERNAL)"/);
    expect(chunks.length).toBeGreaterThan(0);
    const r = await record(chunks[0]!.responseId!);
    expect(r.routing.status_code).toBeGreaterThanOrEqual(500);
  });

  it('takes the key from ?key= as Gemini clients may send it', async () => {
    const res = await fetch(`${t.url}/v1beta/models/gpt-4.1-mini:generateContent?key=${key}`, { method: 'POST', body: JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { candidates: unknown[] }).candidates).toHaveLength(1);
  });

  it('names the Gemini field when the target family refuses what it was translated to', async () => {
    const refusal = async (config: object) => {
      const err = await ai.models.generateContent({ model: 'claude-haiku-4-5', contents: 'Hi', config }).catch((e: unknown) => e);
      expect((err as InstanceType<typeof genai.ApiError>).status).toBe(400);
      return JSON.parse((err as Error).message).error.details[0].metadata.param;
    };
    expect(await refusal({ candidateCount: 2 })).toBe('generationConfig.candidateCount');
    expect(await refusal({ thinkingConfig: { thinkingBudget: 500 }, maxOutputTokens: 4096 })).toBe('generationConfig.thinkingConfig.thinkingBudget');
    // Where the family takes it, it goes up as `n`.
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    await ai.models.generateContent({ model: 'gpt-4.1-mini', contents: 'Hi', config: { candidateCount: 2 } });
    expect((await upstream('/chat/completions'))[0]!.body.n).toBe(2);
  });

  describe('bad input, on purpose: google.rpc.Status 4xx, never 500', () => {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${t.url}${path}`, { method: 'POST', headers: { 'x-goog-api-key': key, 'content-type': 'application/json', ...headers }, body });

    it.each([
      ['malformed JSON', '/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": [', 400, 'INVALID_ARGUMENT'],
      ['an unknown method', '/v1beta/models/gemini-2.5-flash:foo', '{}', 404, 'NOT_FOUND'],
      ['no method', '/v1beta/models/gemini-2.5-flash', '{}', 404, 'NOT_FOUND'],
      ['missing contents', '/v1beta/models/gpt-4.1-mini:generateContent', '{}', 400, 'INVALID_ARGUMENT'],
      ['contents of the wrong type', '/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": "hi"}', 400, 'INVALID_ARGUMENT'],
      ['a part with two kinds of data', '/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": [{"parts": [{"text": "a", "functionCall": {"name": "f"}}]}]}', 400, 'INVALID_ARGUMENT'],
      ['a role Gemini does not have', '/v1beta/models/claude-haiku-4-5:generateContent', '{"contents": [{"role": "system", "parts": [{"text": "a"}]}]}', 400, 'INVALID_ARGUMENT'],
      ['a temperature out of range', '/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": [{"parts": [{"text": "a"}]}], "generationConfig": {"temperature": 7}}', 400, 'INVALID_ARGUMENT'],
      ['an unknown field', '/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": [{"parts": [{"text": "a"}]}], "madeUp": 1}', 400, 'INVALID_ARGUMENT'],
      ['a hosted tool', '/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": [{"parts": [{"text": "a"}]}], "tools": [{"googleSearch": {}}]}', 400, 'INVALID_ARGUMENT'],
      ['a cached content', '/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": [{"parts": [{"text": "a"}]}], "cachedContent": "cachedContents/x"}', 400, 'INVALID_ARGUMENT'],
      ['a file of the upstream account', '/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": [{"parts": [{"fileData": {"fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc"}}]}]}', 400, 'INVALID_ARGUMENT'],
      ['a stream without alt=sse', '/v1beta/models/gemini-2.5-flash:streamGenerateContent', '{"contents": [{"parts": [{"text": "a"}]}]}', 400, 'INVALID_ARGUMENT'],
      ['an embedding of an empty text', '/v1beta/models/gemini-embedding-001:embedContent', '{"content": {"parts": [{"text": ""}]}}', 400, 'INVALID_ARGUMENT'],
      ['a batch naming another model', '/v1beta/models/gemini-embedding-001:batchEmbedContents', '{"requests": [{"model": "models/other", "content": {"parts": [{"text": "a"}]}}]}', 400, 'INVALID_ARGUMENT'],
      ['a chat model asked for embeddings', '/v1beta/models/gpt-4.1-mini:embedContent', '{"content": {"parts": [{"text": "a"}]}}', 400, 'INVALID_ARGUMENT'],
      ['a malformed percent-escape', '/v1beta/models/gem%ZZini:generateContent', '{"contents": [{"parts": [{"text": "a"}]}]}', 400, 'INVALID_ARGUMENT'],
      ['an oversized body', '/v1beta/models/gemini-2.5-flash:generateContent', JSON.stringify({ contents: [{ parts: [{ text: 'x'.repeat(21 * 1024 * 1024) }] }] }), 413, 'INVALID_ARGUMENT'],
    ])('%s', async (_name, path, body, status, rpcStatus) => {
      const before = (await simulatorRequests(t)).requests.length;
      const res = await post(path, body);
      expect(res.status).toBe(status);
      const answer = (await res.json()) as { error: { code: number; status: string; message: string; details: Array<Record<string, any>> } };
      expect(answer.error).toMatchObject({ code: status, status: rpcStatus, message: expect.any(String) });
      expect(answer.error.details[0]).toMatchObject({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', metadata: { request_id: res.headers.get('x-svc-request-id') } });
      expect((await simulatorRequests(t)).requests.length).toBe(before);
    });
  });

  it.each([
    ['no key', () => geminiClient('', t.url, { 'x-goog-api-key': '' }), 'gemini-2.5-flash', 401, 'UNAUTHENTICATED'],
    ['a wrong key', () => geminiClient('sk-wrong', t.url), 'gemini-2.5-flash', 401, 'UNAUTHENTICATED'],
    ['an unknown model', () => ai, 'no-such-model', 404, 'NOT_FOUND'],
  ])('refuses %s in google.rpc.Status shape', async (_name, client, model, status, rpcStatus) => {
    const err = await client().models.generateContent({ model, contents: 'Hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(genai.ApiError);
    expect((err as InstanceType<typeof genai.ApiError>).status).toBe(status);
    const body = JSON.parse((err as InstanceType<typeof genai.ApiError>).message);
    expect(body.error).toMatchObject({ code: status, status: rpcStatus, message: expect.any(String) });
  });
});

describe('the Gemini dialect under a rate limit and a mixed route policy', () => {
  let t: TestGateway;
  let ai: GoogleGenAI;

  beforeAll(async () => {
    const base = loadGatewayConfig({}).config;
    t = await startTestGateway({ config: { ...base, routes: [{ name: 'gemini-or-claude', models: ['gemini-2.5-flash', 'claude-haiku-4-5'] }] }, env: { GATEWAY_RATE_LIMIT_KEY_RPM: '3' } });
    ai = geminiClient(await t.createKey({ name: 'limited' }), t.url);
  });
  afterAll(() => t?.close());

  it('serves a route policy over Gemini and another family through the chat core, then words the rate limit as RESOURCE_EXHAUSTED', async () => {
    const answer = await ai.models.generateContent({ model: 'gemini-or-claude', contents: 'Hi', config: { maxOutputTokens: 3000 } });
    expect(answer.modelVersion).toBe('gemini-or-claude');
    expect(answer.text).toEqual(expect.any(String));
    // Through the chat core, the Gemini route is called by the chat adapter, which sets its own thinking config.
    const sent = (await simulatorRequests(t)).requests.filter((r) => r.path.includes(':generateContent'));
    expect(sent).toHaveLength(1);
    await ai.models.countTokens({ model: 'gemini-or-claude', contents: 'Hi' });
    await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' });
    const err = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' }).catch((e: unknown) => e);
    expect((err as InstanceType<typeof genai.ApiError>).status).toBe(429);
    const status = JSON.parse((err as Error).message).error;
    expect(status).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(status.details).toEqual(expect.arrayContaining([expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: expect.stringMatching(/^\d+s$/) })]));
  });
});
