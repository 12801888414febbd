import OpenAI from 'openai';
import { fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

describe.each(TEST_DATABASES)('embeddings with the openai SDK (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'embeddings' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  it('returns vectors of the catalog dimensions in input order (the SDK asks for base64 and decodes it), and bills input tokens', async () => {
    const { data, response } = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['first text', 'second text'] }).withResponse();
    expect(data.data.map((d) => d.index)).toEqual([0, 1]);
    expect(data.data[0].embedding).toHaveLength(1536);
    expect(data.model).toBe('text-embedding-3-small');
    const record = (await fetchUsageRecord(t, key, response.headers.get('x-svc-request-id')!)).body;
    expect(record.usage.dimensions).toEqual([{ name: 'input', quantity: data.usage.prompt_tokens, unit: 'tokens' }]);
    expect(record.billing.line_items[0]).toMatchObject({ dimension: 'input', unit_microusd: 0.02 });
    expect(record.endpoint).toBe('/v1/embeddings');

    const large = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'x', encoding_format: 'float' });
    expect(large.data[0].embedding).toHaveLength(3072);
    const short = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'x', dimensions: 256 });
    expect(short.data[0].embedding).toHaveLength(256);
  });

  it.each([
    ['no input', { model: 'text-embedding-3-small' }, 'input'],
    ['an empty string', { model: 'text-embedding-3-small', input: '' }, 'input'],
    ['too many dimensions', { model: 'text-embedding-3-small', input: 'x', dimensions: 4096 }, 'dimensions'],
    ['a bad encoding', { model: 'text-embedding-3-small', input: 'x', encoding_format: 'hex' }, 'encoding_format'],
    ['a chat model', { model: 'gpt-4.1', input: 'x' }, 'model'],
  ])('refuses %s with a 400 naming the field', async (_name, body, param) => {
    const res = await fetch(`${t.baseURL}/embeddings`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.param).toBe(param);
  });
});
