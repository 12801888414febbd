import OpenAI from 'openai';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** A 1024-dimension family beside OpenAI and Gemini: Voyage AI through the unchanged openai SDK. */
describe.each(TEST_DATABASES)('Voyage embeddings with the openai SDK (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'voyage-embeddings' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  it('gives 1024-dimension vectors in input order, base64 encoded by the gateway, billed on the provider\'s count', async () => {
    const { data, response } = await client.embeddings.create({ model: 'voyage-3.5', input: ['alpha', 'beta', 'alpha'] }).withResponse();
    expect(data).toMatchObject({ object: 'list', model: 'voyage-3.5' });
    expect(data.data.map((d) => [d.index, d.embedding.length])).toEqual([[0, 1024], [1, 1024], [2, 1024]]);
    expect(data.data[2]!.embedding).toEqual(data.data[0]!.embedding);
    expect(data.data[1]!.embedding).not.toEqual(data.data[0]!.embedding);
    const record = (await fetchUsageRecord(t, key, response.headers.get('x-svc-request-id')!)).body;
    expect(record.usage.measurement).toMatchObject({ input: 'provider' });
    expect(record.usage.prompt_tokens).toBe(data.usage.prompt_tokens);
    expect(record.billing.line_items[0]).toMatchObject({ dimension: 'input', unit_microusd: 0.06 });
    const upstream = (await simulatorRequests(t)).requests.filter((r) => r.path === '/voyage/v1/embeddings').at(-1)!;
    expect(upstream.body).toEqual({ input: ['alpha', 'beta', 'alpha'], model: 'voyage-3.5' });
  });

  it('passes `dimensions` as output_dimension when the model gives that length, and names the lengths otherwise', async () => {
    const short = await client.embeddings.create({ model: 'voyage-3.5', input: 'x', dimensions: 512, encoding_format: 'float' });
    expect(short.data[0]!.embedding).toHaveLength(512);
    const upstream = (await simulatorRequests(t)).requests.filter((r) => r.path === '/voyage/v1/embeddings').at(-1)!;
    expect(upstream.body.output_dimension).toBe(512);
    const before = (await simulatorRequests(t)).requests.length;
    const err = await client.embeddings.create({ model: 'voyage-3.5', input: 'x', dimensions: 300 }).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.error).toMatchObject({ code: 'invalid_parameter', param: 'dimensions', message: '"dimensions" must be one of 256, 512, 1024, 2048 for "voyage-3.5".' });
    expect((await simulatorRequests(t)).requests.length).toBe(before);
  });

  it('lists the lengths each embedding model takes in the catalog, over REST and GraphQL', async () => {
    const rest = (await (await fetch(`${t.url}/api/models/catalog?endpoint_type=embeddings`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;
    const byId = Object.fromEntries(rest.data.map((m: { id: string; embedding: unknown }) => [m.id, m.embedding]));
    expect(byId['voyage-3.5']).toEqual({ dimensions: 1024, max_inputs: 1000, allowed_dimensions: [256, 512, 1024, 2048] });
    expect(byId['text-embedding-3-small']).toMatchObject({ dimensions: 1536, allowed_dimensions: null });
    const gql = (await (await fetch(`${t.url}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ catalog { id embedding { dimensions allowedDimensions } } }' }),
    })).json()) as any;
    expect(gql.data.catalog.find((m: { id: string }) => m.id === 'voyage-3.5').embedding).toEqual({ dimensions: 1024, allowedDimensions: [256, 512, 1024, 2048] });
  });

  it('maps Voyage\'s error answers and records them uncharged', async () => {
    const err = await client.embeddings.create({ model: 'voyage-3.5', input: 'x [sim status=429 retry_after=1]' }).catch((e) => e);
    expect(err.status).toBe(429);
    const record = (await fetchUsageRecord(t, key, err.headers.get('x-svc-request-id'))).body;
    expect(record.billing.amount_microusd).toBe(0);
  });
});
