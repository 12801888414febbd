import { useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

const post = (body: unknown, headers: Record<string, string> = { authorization: 'Bearer test' }) =>
  fetch(`${simulator.current.url}/voyage/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('Voyage AI embeddings', () => {
  it('answers unit vectors of the default length in input order, with total_tokens only', async () => {
    const res = await post({ input: ['a', 'b'], model: 'voyage-3.5' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<{ index: number; embedding: number[] }>; usage: Record<string, number> };
    expect(body.data.map((d) => [d.index, d.embedding.length])).toEqual([[0, 1024], [1, 1024]]);
    expect(Object.keys(body.usage)).toEqual(['total_tokens']);
    expect(Math.hypot(...body.data[0]!.embedding)).toBeCloseTo(1, 5);
  });

  it.each([
    ['a length the model does not give', { input: 'a', model: 'voyage-3.5', output_dimension: 300 }, 400],
    ['an empty input', { input: [], model: 'voyage-3.5' }, 400],
    ['more than 1,000 texts', { input: Array.from({ length: 1001 }, () => 'x'), model: 'voyage-3.5' }, 400],
    ['an error directive', { input: 'x [sim status=503]', model: 'voyage-3.5' }, 503],
  ])('refuses %s in Voyage\'s error shape', async (_name, body, status) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(typeof ((await res.json()) as { detail?: unknown }).detail).toBe('string');
  });

  it('needs a bearer key', async () => {
    expect((await post({ input: 'a', model: 'voyage-3.5' }, {})).status).toBe(401);
  });
});
