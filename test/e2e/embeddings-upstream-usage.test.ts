import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadGatewayConfig } from '../../src/config/load-config';
import { fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/**
 * An OpenAI-compatible upstream on loopback whose embeddings answers carry
 * the usage the input names (`usage:<case>`): the gateway must never trust a
 * usage it has not validated, and must always write a usage record.
 */
const USAGES: Record<string, unknown> = {
  valid: { prompt_tokens: 7, total_tokens: 7 },
  fractional: { prompt_tokens: 12.5, total_tokens: 12.5 },
  text: { prompt_tokens: '12', total_tokens: '12' },
  negative: { prompt_tokens: -3, total_tokens: -3 },
  huge: { prompt_tokens: 1e12, total_tokens: 1e12 },
  not_an_object: '12',
  empty: {},
  null: null,
};

function fakeOpenAI(): Promise<Server> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = JSON.parse(raw) as { input: string | string[] };
      const first = Array.isArray(body.input) ? body.input[0] : body.input;
      const usageCase = /usage:(\w+)/.exec(first)?.[1] ?? 'valid';
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      const answer: Record<string, unknown> = {
        object: 'list',
        data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3] })),
        model: 'text-embedding-3-small',
      };
      if (usageCase !== 'absent') answer.usage = USAGES[usageCase];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.each(TEST_DATABASES)('embeddings with an upstream usage that is not valid (%s)', (database) => {
  let t: TestGateway;
  let upstream: Server;
  let key: string;

  beforeAll(async () => {
    upstream = await fakeOpenAI();
    const base = loadGatewayConfig({}).config;
    const config = { ...base, providers: { ...base.providers, openai: { type: 'openai' as const, base_url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1` } } };
    t = await startTestGateway({ database, config });
    key = await t.createKey({ name: 'embeddings-usage' });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => upstream?.close(r));
  });

  async function embed(input: string | string[]) {
    const res = await fetch(`${t.baseURL}/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input, encoding_format: 'float' }),
    });
    const body = (await res.json()) as any;
    const record = await fetchUsageRecord(t, key, res.headers.get('x-svc-request-id')!);
    return { status: res.status, body, record };
  }

  it('bills a valid upstream usage as the provider reported it', async () => {
    const { status, body, record } = await embed('hello usage:valid');
    expect(status).toBe(200);
    expect(body.usage).toEqual({ prompt_tokens: 7, total_tokens: 7 });
    expect(record.status).toBe(200);
    expect(record.body.usage).toMatchObject({ prompt_tokens: 7, total_tokens: 7, measurement: { input: 'provider' } });
    expect(record.body.usage.dimensions).toEqual([{ name: 'input', quantity: 7, unit: 'tokens' }]);
  });

  it.each(['fractional', 'text', 'negative', 'huge', 'not_an_object', 'empty', 'null', 'absent'])(
    'a usage that is %s falls back to a local estimate, answered and recorded with whole numbers',
    async (usageCase) => {
      const { status, body, record } = await embed(`The quick brown fox jumps over the lazy dog usage:${usageCase}`);
      expect(status).toBe(200);
      expect(body.data).toHaveLength(1);
      expect(record.status).toBe(200);
      const usage = record.body.usage;
      expect(usage.measurement).toEqual({ input: 'local_estimate', output: 'unavailable' });
      expect(Number.isInteger(usage.prompt_tokens)).toBe(true);
      expect(usage.prompt_tokens).toBeGreaterThan(5);
      expect(usage.prompt_tokens).toBeLessThan(30);
      expect(usage.total_tokens).toBe(usage.prompt_tokens);
      expect(usage.dimensions).toEqual([{ name: 'input', quantity: usage.prompt_tokens, unit: 'tokens' }]);
      expect(Number.isInteger(record.body.billing.amount_microusd)).toBe(true);
      // The client reads the usage it was billed for.
      expect(body.usage).toEqual({ prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens });
    },
  );

  it('estimates several inputs together', async () => {
    const single = await embed('alpha beta gamma usage:text');
    const double = await embed(['alpha beta gamma usage:text', 'alpha beta gamma usage:text']);
    expect(double.record.body.usage.prompt_tokens).toBe(2 * single.record.body.usage.prompt_tokens);
  });
});
