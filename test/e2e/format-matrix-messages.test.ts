import Anthropic from '@anthropic-ai/sdk';
import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** The default catalog with an xAI chat model, so that every upstream family is reachable from the Messages dialect. */
function withGrok(): GatewayConfigInput {
  const base = loadGatewayConfig({}).config as GatewayConfigInput;
  const grok: GatewayConfigInput['models'][number] = {
    id: 'grok-4-fast', owned_by: 'xai', family: 'xai', endpoint_types: ['chat'],
    context_window: 2_000_000, max_output_tokens: 30_000, modalities: { input: ['text', 'image'], output: ['text'] },
    capabilities: { tools: true, tool_choice: true, json_output: true, vision: true, streaming: true, prompt_caching: true },
    pricing: { input: '0.20', cache_read: '0.05', output: '0.50' },
    routes: [{ provider: 'xai', upstream_model: 'grok-4-fast', lane: 'standard' }],
  };
  return { ...base, models: [...base.models, grok] };
}

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** What each family's upstream is called at, and what must never reach it. */
const FAMILIES = [
  { family: 'anthropic', model: 'claude-haiku-4-5', path: () => '/v1/messages', foreign: ['reasoning_effort', 'reasoning', 'user', 'stream_options', 'parallel_tool_calls'] },
  { family: 'openai', model: 'gpt-4.1-mini', path: () => '/v1/chat/completions', foreign: ['cache_control', 'thinking', 'metadata', 'system', 'stop_sequences', 'input_schema'] },
  { family: 'gemini', model: 'gemini-2.5-flash', path: (stream: boolean) => `/v1beta/models/gemini-2.5-flash:${stream ? 'streamGenerateContent' : 'generateContent'}`, foreign: ['cache_control', 'thinking', 'metadata', 'messages', 'input_schema', 'max_tokens'] },
  { family: 'xai', model: 'grok-4-fast', path: () => '/v1/chat/completions', foreign: ['cache_control', 'thinking', 'metadata', 'system', 'stop_sequences', 'input_schema'] },
] as const;

/** Every key, however deep, of a JSON value. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => keysOf(item, into));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      into.add(key);
      keysOf(child, into);
    }
  }
  return into;
}

/**
 * The Messages dialect against every upstream family, whole and streamed:
 * the answer is in Anthropic's shape whoever served it, and the upstream
 * request is in the provider's own protocol, with nothing of another's
 * (no `cache_control` or `thinking` reaching OpenAI, no `reasoning_effort`
 * reaching Anthropic).
 */
describe.each(TEST_DATABASES)('the Messages dialect to every upstream family (%s)', (database) => {
  let t: TestGateway;
  let client: Anthropic;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: withGrok() });
    key = await t.createKey();
    client = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
  });
  afterAll(() => t?.close());
  beforeEach(() => fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' }));

  const request = (model: string) => ({
    model,
    max_tokens: 1024,
    system: [{ type: 'text' as const, text: 'You are a weather assistant.', cache_control: { type: 'ephemeral' as const } }],
    metadata: { user_id: 'user-1' },
    stop_sequences: ['###'],
    tools: [{ ...weatherTool, cache_control: { type: 'ephemeral' as const } }],
    messages: [{ role: 'user' as const, content: 'Hello there' }],
  });

  async function upstreamBody(path: string, model: string): Promise<any> {
    const requests = (await simulatorRequests(t)).requests.filter((r) => r.path === path);
    const mine = requests.filter((r) => (r.body as any)?.model === undefined || (r.body as any).model === model);
    expect(mine).toHaveLength(1);
    return mine[0]!.body;
  }

  function expectOwnProtocol(family: (typeof FAMILIES)[number]['family'], body: any, foreign: readonly string[], stream: boolean): void {
    const keys = keysOf(body);
    for (const field of foreign) expect({ field, present: keys.has(field) }).toEqual({ field, present: false });
    if (family === 'anthropic') {
      expect(body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 1024, stop_sequences: ['###'], tools: [{ name: 'get_weather', input_schema: weatherTool.input_schema }] });
      expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' });
      expect(body.metadata.user_id).toMatch(/^[0-9a-f]{64}$/);
      expect(body.stream).toBe(stream);
    } else if (family === 'gemini') {
      expect(body.systemInstruction.parts[0].text).toBe('You are a weather assistant.');
      expect(body.contents[0]).toMatchObject({ role: 'user', parts: [{ text: 'Hello there' }] });
      expect(body.tools[0].functionDeclarations[0].name).toBe('get_weather');
      expect(body.generationConfig.stopSequences).toEqual(['###']);
    } else {
      expect(body.messages[0]).toMatchObject({ role: 'system' });
      expect(body.tools[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
      expect(body.stop).toEqual(['###']);
      expect(body.user).toMatch(/^[0-9a-f]{64}$/);
      expect(Boolean(body.stream)).toBe(stream);
    }
  }

  describe.each(FAMILIES)('$family', ({ family, model, path, foreign }) => {
    it('a whole message', async () => {
      const message = await client.messages.create(request(model));
      expect(message).toMatchObject({ type: 'message', role: 'assistant', model, stop_sequence: null });
      expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(['end_turn', 'tool_use']).toContain(message.stop_reason);
      for (const block of message.content) expect(['text', 'tool_use', 'thinking']).toContain(block.type);
      expect(message.usage).toEqual(expect.objectContaining({ input_tokens: expect.any(Number), output_tokens: expect.any(Number), cache_read_input_tokens: expect.any(Number), cache_creation_input_tokens: expect.any(Number) }));
      expectOwnProtocol(family, await upstreamBody(path(false), model), foreign, false);
    });

    it('a streamed message', async () => {
      const res = await fetch(`${t.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ ...request(model), stream: true }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = (await res.text()).split('\n\n').filter(Boolean).map((frame) => {
        const [eventLine, dataLine] = frame.split('\n');
        return { name: eventLine!.replace(/^event: /, ''), data: JSON.parse(dataLine!.replace(/^data: /, '')) };
      });
      for (const { name, data } of events) expect(data.type).toBe(name);
      const types = events.map((e) => e.name);
      expect(types.slice(0, 2)).toEqual(['message_start', 'ping']);
      expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
      const starts = events.filter((e) => e.name === 'content_block_start').map((e) => e.data.index);
      const stops = events.filter((e) => e.name === 'content_block_stop').map((e) => e.data.index);
      expect(starts).toEqual(starts.map((_: number, i: number) => i));
      expect(stops).toEqual(starts);
      for (const delta of events.filter((e) => e.name === 'content_block_delta')) {
        expect(['text_delta', 'thinking_delta', 'signature_delta', 'input_json_delta']).toContain(delta.data.delta.type);
      }
      const start = events[0]!.data.message;
      expect(start).toMatchObject({ type: 'message', role: 'assistant', model, content: [] });
      expect(start.id).toBe(`msg_${res.headers.get('x-svc-request-id')!.replace(/^req_/, '')}`);
      const end = events.at(-2)!.data;
      expect(['end_turn', 'tool_use']).toContain(end.delta.stop_reason);
      expect(end.usage.output_tokens).toBeGreaterThan(0);
      expectOwnProtocol(family, await upstreamBody(path(true), model), foreign, true);
    });
  });
});
