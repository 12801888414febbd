import OpenAI from 'openai';
import { startSimulator, type SimulatorHandle } from '@model-gateway/simulator';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * Operators set each provider's base URL the way that provider's SDK reads
 * it: Anthropic's and Gemini's without the version segment, OpenAI's with
 * it, with or without a trailing slash. Every form reaches the real paths of
 * an upstream that serves them (the simulator, standing in for the providers).
 */
describe.each([
  ['SDK style: no version for Anthropic and Gemini, /v1 for OpenAI', { anthropic: '', gemini: '/', openai: '/v1' }],
  ['fully written, with trailing slashes', { anthropic: '/v1/', gemini: '/v1beta/', openai: '/v1/' }],
])('provider base URLs, %s', (_name, suffixes) => {
  let upstream: SimulatorHandle;
  let t: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startSimulator();
    t = await startTestGateway({
      env: {
        ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: upstream.url + suffixes.anthropic,
        GEMINI_API_KEY: 'gemini-test', GEMINI_BASE_URL: upstream.url + suffixes.gemini,
        OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: upstream.url + suffixes.openai,
      },
    });
    client = new OpenAI({ apiKey: await t.createKey({ name: 'base-urls' }), baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it.each([
    ['claude-haiku-4-5', '/v1/messages'],
    ['gemini-2.5-flash', '/v1beta/models/gemini-2.5-flash:generateContent'],
    ['gpt-4.1-mini', '/v1/chat/completions'],
  ])('%s reaches %s', async (model, path) => {
    await fetch(`${upstream.url}/_sim/requests`, { method: 'DELETE' });
    const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 50 });
    expect(completion.choices[0]!.message.content).toEqual(expect.any(String));
    const { requests } = (await (await fetch(`${upstream.url}/_sim/requests`)).json()) as { requests: { path: string }[] };
    expect(requests.map((r) => r.path)).toEqual([path]);
  });
});
