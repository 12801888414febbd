import type OpenAI from 'openai';
import { errorBody, openaiClient, postJson, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();
let client: OpenAI;
beforeAll(() => {
  client = openaiClient(simulator.current);
});

const norm = (vector: number[]) => Math.sqrt(vector.reduce((sum, component) => sum + component * component, 0));

describe('POST /v1/embeddings', () => {
  it('serves the SDK default (base64) as unit vectors of the model dimension, in input order', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['alpha', 'beta', 'alpha'] });

    expect(result.object).toBe('list');
    expect(result.model).toBe('text-embedding-3-small');
    expect(result.data.map((item) => item.index)).toEqual([0, 1, 2]);
    for (const item of result.data) {
      expect(item.object).toBe('embedding');
      expect(item.embedding).toHaveLength(1536);
      expect(norm(item.embedding)).toBeCloseTo(1, 5);
    }
    expect(result.data[2]!.embedding).toEqual(result.data[0]!.embedding);
    expect(result.data[1]!.embedding).not.toEqual(result.data[0]!.embedding);
    // 'alpha' is 2 tokens and 'beta' 1 under the four-characters rule.
    expect(result.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
  });

  it('gives the same numbers as floats and as base64 float32', async () => {
    const asFloats = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'same text', encoding_format: 'float' });
    const asBase64 = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'same text' });

    expect(asFloats.data[0]!.embedding).toEqual(asBase64.data[0]!.embedding);
  });

  it('sends base64 as little-endian float32 when asked explicitly', async () => {
    const response = await postJson(simulator.current, '/v1/embeddings', { model: 'text-embedding-3-large', input: 'x', encoding_format: 'base64' });
    const body = (await response.json()) as { data: { embedding: string }[] };
    const bytes = Buffer.from(body.data[0]!.embedding, 'base64');

    expect(bytes.length).toBe(3072 * 4);
    expect(bytes.readFloatLE(0)).toBe(new Float32Array(bytes.buffer, bytes.byteOffset, 3072)[0]);
  });

  it('sizes vectors by the dimensions field, or 1024 for other models', async () => {
    const shortened = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'x', dimensions: 256 });
    const other = await client.embeddings.create({ model: 'some-local-embedder', input: 'x' });

    expect(shortened.data[0]!.embedding).toHaveLength(256);
    expect(norm(shortened.data[0]!.embedding)).toBeCloseTo(1, 5);
    expect(other.data[0]!.embedding).toHaveLength(1024);
  });

  it('takes token-id inputs and counts one token per id', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: [[1, 2, 3], [4, 5]] });

    expect(result.data).toHaveLength(2);
    expect(result.usage.prompt_tokens).toBe(5);
  });

  it('refuses a missing or empty input and an unknown model', async () => {
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: '' })).rejects.toMatchObject({ status: 400, param: 'input' });
    const missing = await postJson(simulator.current, '/v1/embeddings', { model: 'text-embedding-3-small' });
    expect(missing.status).toBe(400);
    expect((await errorBody(missing)).error.code).toBe('missing_required_parameter');
    await expect(client.embeddings.create({ model: 'unknown-model', input: 'x' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('obeys directives written in an input', async () => {
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: ['fine', 'broken [sim status=503]'] })).rejects.toMatchObject({ status: 503 });
  });
});
