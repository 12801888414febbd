import OpenAI from 'openai';
import { startSimulator, type SimulatorHandle } from '@model-gateway/simulator';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * An install without the built-in simulator (the production image) on the
 * default catalog, with one provider's key: it starts, serves that
 * provider's models, and the others (and their models) are off, listed in a
 * start-up warning, instead of a start that fails for want of every key.
 */
describe('the default catalog where nothing simulates the providers without a key', () => {
  let upstream: SimulatorHandle;
  let t: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startSimulator();
    t = await startTestGateway({
      env: { GATEWAY_UNKEYED_PROVIDERS: 'disabled', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${upstream.url}/v1` },
      logLevel: 'warn',
    });
    client = new OpenAI({ apiKey: await t.createKey({ name: 'openai-only' }), baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('serves the keyed provider and lists no model of the others', async () => {
    expect(t.simulatorUrl).toBe('');
    const ids = (await client.models.list()).data.map((m) => m.id);
    expect(ids).toContain('gpt-4.1-mini');
    expect(ids.filter((id) => /claude|gemini|grok|voyage/.test(id))).toEqual([]);
    const answer = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.choices[0]!.message.content).toMatch(/\S/);
    const err: any = await client.chat.completions.create({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect({ status: err.status, code: err.code }).toEqual({ status: 404, code: 'model_not_found' });
  });

  it('says at start-up what it switched off and what to do', () => {
    const warning = t.logs().find((line) => line.includes('without an API key'));
    expect(warning).toContain('provider anthropic');
    expect(warning).toContain('GATEWAY_UNKEYED_PROVIDERS=simulator');
  });
});
