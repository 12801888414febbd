import { GEMINI_KEY_HEADER } from './gemini-test-kit';
import { useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

const post = (model: string, method: string, body: unknown, headers: Record<string, string> = GEMINI_KEY_HEADER) =>
  fetch(`${simulator.current.url}/v1beta/models/${model}:${method}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const request = (model: string, text: string, extra: object = {}) => ({ model: `models/${model}`, content: { parts: [{ text }] }, ...extra });

describe('Gemini embeddings (batchEmbedContents, embedContent)', () => {
  it('answers one vector per request, in order, with the model\'s length, and no usage', async () => {
    const res = await post('gemini-embedding-001', 'batchEmbedContents', { requests: [request('gemini-embedding-001', 'a'), request('gemini-embedding-001', 'b')] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { embeddings: Array<{ values: number[] }>; usageMetadata?: unknown };
    expect(body.embeddings.map((e) => e.values.length)).toEqual([3072, 3072]);
    expect(body.usageMetadata).toBeUndefined();
    const one = (await (await post('gemini-embedding-001', 'embedContent', { content: { parts: [{ text: 'b' }] } })).json()) as { embedding: { values: number[] } };
    expect(one.embedding.values).toEqual(body.embeddings[1]!.values);
  });

  it('gives the leading part of the vector for outputDimensionality', async () => {
    const full = (await (await post('text-embedding-004', 'embedContent', { content: { parts: [{ text: 'x' }] } })).json()) as { embedding: { values: number[] } };
    const short = (await (await post('text-embedding-004', 'embedContent', { content: { parts: [{ text: 'x' }] }, outputDimensionality: 10 })).json()) as { embedding: { values: number[] } };
    expect(full.embedding.values).toHaveLength(768);
    expect(short.embedding.values).toEqual(full.embedding.values.slice(0, 10));
  });

  it.each([
    ['a batched request naming another model', 'gemini-embedding-001', { requests: [request('text-embedding-004', 'a')] }, 400],
    ['more than 100 requests', 'gemini-embedding-001', { requests: Array.from({ length: 101 }, (_, i) => request('gemini-embedding-001', `t${i}`)) }, 400],
    ['no requests', 'gemini-embedding-001', { requests: [] }, 400],
    ['too many dimensions', 'text-embedding-004', { requests: [request('text-embedding-004', 'a', { outputDimensionality: 769 })] }, 400],
    ['an error directive', 'gemini-embedding-001', { requests: [request('gemini-embedding-001', 'x [sim status=429]')] }, 429],
  ])('refuses %s', async (_name, model, body, status) => {
    const res = await post(model, 'batchEmbedContents', body);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(status);
  });

  it('needs an API key', async () => {
    const res = await post('gemini-embedding-001', 'embedContent', { content: { parts: [{ text: 'x' }] } }, {});
    expect(res.status).toBe(403);
  });
});
