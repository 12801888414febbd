import { loadGatewayConfig } from '../../src/config/load-config';
import { eventually } from '../support/eventually';
import { fetchUsageRecord, simulatorRequests, startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * The Gemini dialect against each upstream family: a plain and a streamed
 * call, the answer checked in Gemini's shape (and nothing of OpenAI's), the
 * upstream request checked in the provider's own protocol (and nothing of
 * Gemini's, nor of another provider's).
 */
describe('format matrix: the Gemini dialect to every upstream family', () => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    const base = loadGatewayConfig({}).config;
    const grok = {
      id: 'grok-4-fast', owned_by: 'xai', family: 'xai', endpoint_types: ['chat' as const], context_window: 131_072,
      capabilities: { tools: true, tool_choice: true, json_output: true, vision: false, streaming: true, prompt_caching: false },
      pricing: { input: '0.20', output: '0.50' }, routes: [{ provider: 'xai', upstream_model: 'grok-4-fast', lane: 'standard' }],
    };
    t = await startTestGateway({ config: { ...base, models: [...base.models, grok] } });
    key = await t.createKey({ name: 'format-matrix' });
  });
  afterAll(() => t?.close());
  beforeEach(() => fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' }));

  const body = {
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
    generationConfig: { temperature: 0.5, maxOutputTokens: 3000 },
    safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
  };
  const call = (model: string, method: string) =>
    fetch(`${t.url}/v1beta/models/${model}:${method}`, { method: 'POST', headers: { 'x-goog-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const GEMINI_FIELDS = ['contents', 'systemInstruction', 'generationConfig', 'safetySettings', 'toolConfig', 'cachedContent'];
  const CHAT_FIELDS = ['stream_options', 'n', 'response_format', 'logit_bias'];

  const expectGeminiAnswer = (answer: Record<string, any>, model: string) => {
    expect(Object.keys(answer).sort()).toEqual(expect.arrayContaining(['candidates', 'modelVersion', 'responseId']));
    for (const foreign of ['choices', 'object', 'id', 'usage', 'model']) expect(answer).not.toHaveProperty(foreign);
    expect(answer.modelVersion).toBe(model);
    for (const candidate of answer.candidates) {
      expect(candidate.content.role).toBe('model');
      for (const part of candidate.content.parts) expect(Object.keys(part).every((k) => ['text', 'thought', 'thoughtSignature', 'functionCall'].includes(k))).toBe(true);
    }
  };

  const upstreamChecks: Record<string, { path: RegExp; check: (sent: Record<string, any>) => void }> = {
    gemini: {
      path: /:(generateContent|streamGenerateContent)/,
      check: (sent) => {
        expect(Object.keys(sent).every((k) => GEMINI_FIELDS.includes(k) || k === 'tools')).toBe(true);
        expect(sent.safetySettings).toEqual(body.safetySettings);
        expect(sent.generationConfig).toEqual(body.generationConfig);
        expect(sent).not.toHaveProperty('messages');
      },
    },
    openai: {
      path: /\/chat\/completions$/,
      check: (sent) => {
        expect(sent.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
        expect(sent.temperature).toBe(0.5);
        for (const foreign of GEMINI_FIELDS) expect(sent).not.toHaveProperty(foreign);
      },
    },
    anthropic: {
      path: /\/messages$/,
      check: (sent) => {
        expect(sent.system).toEqual(expect.anything());
        expect(sent.max_tokens).toBe(3000);
        for (const foreign of [...GEMINI_FIELDS, ...CHAT_FIELDS, 'max_completion_tokens']) expect(sent).not.toHaveProperty(foreign);
        expect(sent.messages.every((m: { role: string }) => m.role === 'user' || m.role === 'assistant')).toBe(true);
      },
    },
  };
  upstreamChecks.xai = upstreamChecks.openai!;

  describe.each([
    ['gemini', 'gemini-2.5-flash'],
    ['openai', 'gpt-4.1-mini'],
    ['anthropic', 'claude-haiku-4-5'],
    ['xai', 'grok-4-fast'],
  ])('%s (%s)', (family, model) => {
    const upstreamBody = async () => {
      const sent = (await simulatorRequests(t)).requests.filter((r) => upstreamChecks[family]!.path.test(r.path));
      expect(sent).toHaveLength(1);
      return sent[0]!.body;
    };

    it('a plain call', async () => {
      const res = await call(model, 'generateContent');
      expect(res.status).toBe(200);
      const answer = (await res.json()) as Record<string, any>;
      expectGeminiAnswer(answer, model);
      expect(answer.responseId).toBe(res.headers.get('x-svc-request-id'));
      expect(answer.candidates[0].finishReason).toBe('STOP');
      expect(answer.usageMetadata.promptTokenCount).toBeGreaterThan(0);
      upstreamChecks[family]!.check(await upstreamBody());
    });

    it('a streamed call: data-only events, no [DONE], usage on the last', async () => {
      const res = await call(model, 'streamGenerateContent?alt=sse');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const text = await res.text();
      expect(text).not.toContain('[DONE]');
      expect(text).not.toMatch(/^event:/m);
      const events = text.split(/\r?\n\r?\n/).filter((e) => e.trim()).map((e) => {
        expect(e.startsWith('data: ')).toBe(true);
        return JSON.parse(e.slice('data: '.length)) as Record<string, any>;
      });
      expect(events.length).toBeGreaterThan(1);
      for (const event of events) expectGeminiAnswer(event, model);
      const last = events.at(-1)!;
      expect(last.candidates[0].finishReason).toBe('STOP');
      expect(last.usageMetadata.promptTokenCount).toBeGreaterThan(0);
      const sent = await upstreamBody();
      upstreamChecks[family]!.check(sent);
      if (family !== 'gemini') expect(sent.stream).toBe(true);
      const record = await eventually(async () => {
        const r = await fetchUsageRecord(t, key, res.headers.get('x-svc-request-id')!);
        return r.status === 200 ? r.body : undefined;
      }, 'usage record');
      expect(record.endpoint).toBe('/v1beta/models/{model}:streamGenerateContent');
      expect(record.usage.prompt_tokens).toBe(last.usageMetadata.promptTokenCount);
    });
  });
});
