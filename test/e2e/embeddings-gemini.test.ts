import OpenAI from 'openai';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** Gemini embedding models through the unchanged openai SDK: batchEmbedContents upstream, the OpenAI shape and encodings to the client. */
describe.each(TEST_DATABASES)('Gemini embeddings with the openai SDK (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'gemini-embeddings' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

  it('answers in the OpenAI shape; base64 (the SDK default, encoded by the gateway) decodes to the same floats', async () => {
    const { data, response } = await client.embeddings.create({ model: 'gemini-embedding-001', input: ['first text', 'second text'] }).withResponse();
    expect(data).toMatchObject({ object: 'list', model: 'gemini-embedding-001' });
    expect(data.data.map((d) => [d.object, d.index, d.embedding.length])).toEqual([['embedding', 0, 3072], ['embedding', 1, 3072]]);
    expect(norm(data.data[0]!.embedding)).toBeCloseTo(1, 5);
    const floats = await client.embeddings.create({ model: 'gemini-embedding-001', input: ['first text', 'second text'], encoding_format: 'float' });
    // float32 on the wire: the same numbers to float32 precision.
    floats.data.forEach((d, i) => d.embedding.forEach((x, j) => expect(data.data[i]!.embedding[j]).toBeCloseTo(x, 6)));

    const record = (await fetchUsageRecord(t, key, response.headers.get('x-svc-request-id')!)).body;
    // Gemini reports no usage for embeddings: the gateway counts the input.
    expect(record.usage.measurement).toMatchObject({ input: 'local_estimate' });
    expect(record.usage.prompt_tokens).toBe(data.usage.prompt_tokens);
    expect(data.usage.prompt_tokens).toBeGreaterThan(0);
    expect(record.billing.line_items[0]).toMatchObject({ dimension: 'input', unit_microusd: 0.15 });
    const upstream = (await simulatorRequests(t)).requests.filter((r) => r.path.includes(':batchEmbedContents'));
    expect(upstream.at(-1)!.body.requests[0]).toEqual({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'first text' }] } });
  });

  it('keeps input order across batches of 100, and truncates to `dimensions`', async () => {
    const inputs = Array.from({ length: 230 }, (_, i) => `text number ${i}`);
    const before = (await simulatorRequests(t)).requests.length;
    const all = await client.embeddings.create({ model: 'text-embedding-004', input: inputs, encoding_format: 'float' });
    expect(all.data.map((d) => d.index)).toEqual(inputs.map((_, i) => i));
    const calls = (await simulatorRequests(t)).requests.slice(before).filter((r) => r.path.includes(':batchEmbedContents'));
    expect(calls.map((c) => c.body.requests.length)).toEqual([100, 100, 30]);
    const single = await client.embeddings.create({ model: 'text-embedding-004', input: inputs[150]!, encoding_format: 'float' });
    expect(all.data[150]!.embedding).toEqual(single.data[0]!.embedding);

    const short = await client.embeddings.create({ model: 'gemini-embedding-001', input: 'x', dimensions: 768 });
    expect(short.data[0]!.embedding).toHaveLength(768);
    const full = await client.embeddings.create({ model: 'gemini-embedding-001', input: 'x', encoding_format: 'float' });
    // Gemini's shorter vectors are the leading part of the full one.
    short.data[0]!.embedding.forEach((x, j) => expect(full.data[0]!.embedding[j]).toBeCloseTo(x, 6));
  });

  it.each([
    ['token ids (Gemini takes text only)', { model: 'text-embedding-004', input: [1, 2, 3] }, 400, 'input'],
    ['more dimensions than the model gives', { model: 'text-embedding-004', input: 'x', dimensions: 1024 }, 400, 'dimensions'],
  ])('refuses %s before any upstream call', async (_name, body, status, param) => {
    const before = (await simulatorRequests(t)).requests.length;
    const res = await fetch(`${t.baseURL}/embeddings`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(status);
    const error = ((await res.json()) as any).error;
    expect(error.param).toBe(param);
    expect((await simulatorRequests(t)).requests.length).toBe(before);
  });

  it('refuses an input over the model\'s token limit with a 413 that says to chunk, before any upstream call', async () => {
    const before = (await simulatorRequests(t)).requests.length;
    const long = Array.from({ length: 3_000 }, (_, i) => `word${i}`).join(' ');
    const err = await client.embeddings.create({ model: 'text-embedding-004', input: ['short', long] }).catch((e) => e);
    expect(err.status).toBe(413);
    expect(err.error).toMatchObject({ code: 'request_body_too_large', param: 'input', details: { input_index: 1, max_input_tokens: 2048 } });
    expect(err.error.message).toMatch(/Split the text into smaller chunks/);
    expect((await simulatorRequests(t)).requests.length).toBe(before);
  });

  it('names the lengths the model gives when `dimensions` is not one of them', async () => {
    const res = await fetch(`${t.baseURL}/embeddings`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-004', input: 'x', dimensions: 1024 }) });
    expect(((await res.json()) as any).error.message).toBe('"dimensions" must be 1 to 768 for "text-embedding-004".');
  });

  it('maps an upstream failure to the gateway\'s error and records it uncharged', async () => {
    const err = await client.embeddings.create({ model: 'gemini-embedding-001', input: 'boom [sim status=503]' }).catch((e) => e);
    expect(err.status).toBe(503);
    const record = (await fetchUsageRecord(t, key, err.headers.get('x-svc-request-id'))).body;
    expect(record.billing.amount_microusd).toBe(0);
  });
});
