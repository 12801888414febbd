import { geminiClient, genai, type Content, type GenerateContentResponse, type GoogleGenAI } from '../support/gemini-client';
import { eventually } from '../support/eventually';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

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
    eventually(async () => {
      const r = await fetchUsageRecord(t, key, requestId);
      return r.status === 200 ? r.body : undefined;
    }, `usage record ${requestId}`);
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
      if (!response.text) console.log(JSON.stringify(response));
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
    });
  });

  it.each(['gemini-embedding-001', 'text-embedding-3-small'])('embeds with models.embedContent on %s', async (model) => {
    const response = await ai.models.embedContent({ model, contents: ['first text', 'second text'], config: { outputDimensionality: 256 } });
    expect(response.embeddings!.map((e) => e.values!.length)).toEqual([256, 256]);
    const one = await ai.models.embedContent({ model, contents: 'first text', config: { outputDimensionality: 256 } });
    one.embeddings![0]!.values!.forEach((x, i) => expect(response.embeddings![0]!.values![i]).toBeCloseTo(x, 5));
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
