import { createHash } from 'node:crypto';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * Automatic persisted queries (Apollo's protocol): a dashboard sends the
 * query's SHA-256 alone; the first time the gateway asks for the text
 * (`PERSISTED_QUERY_NOT_FOUND`), after that the hash is enough, over POST
 * and over GET (cacheable URLs).
 */
describe('GraphQL automatic persisted queries', () => {
  let t: TestGateway;
  let key: string;
  beforeAll(async () => {
    t = await startTestGateway({ database: 'pglite' });
    key = await t.createKey({ name: 'apq' });
  });
  afterAll(() => t?.close());

  const query = '{ models { id } }';
  const sha256Hash = createHash('sha256').update(query).digest('hex');
  const extensions = { persistedQuery: { version: 1, sha256Hash } };

  async function post(body: unknown) {
    const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as { data?: { models: Array<{ id: string }> }; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  }

  it('asks for the text once, then runs the query by its hash', async () => {
    const unknown = await post({ extensions });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await post({ query, extensions });
    expect(registered.data?.models.length).toBeGreaterThan(0);
    const byHash = await post({ extensions });
    expect(byHash.data).toEqual(registered.data);
    const get = await fetch(`${t.url}/graphql?${new URLSearchParams({ extensions: JSON.stringify(extensions) })}`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await get.json()) as { data?: unknown }).data).toEqual(registered.data);
  });

  it('refuses a text that does not match its hash', async () => {
    const wrong = await post({ query: '{ models { id ownedBy } }', extensions });
    expect(wrong.errors?.[0]?.message).toMatch(/sha does not match/i);
  });
});
