import { startTestGateway, type TestGateway } from '../support/test-gateway';

/** GATEWAY_GRAPHQL_INTROSPECTION=false: `__schema` and `__type` are refused in validation; everything else runs, `_service` for a router included. */
describe('GraphQL introspection turned off by the operator', () => {
  let t: TestGateway;
  let key: string;
  beforeAll(async () => {
    t = await startTestGateway({ database: 'pglite', env: { GATEWAY_GRAPHQL_INTROSPECTION: 'false' } });
    key = await t.createKey({ name: 'no-introspection' });
  });
  afterAll(() => t?.close());

  const run = async (query: string) => {
    const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return (await res.json()) as { data?: Record<string, unknown>; errors?: Array<{ message: string }> };
  };

  it('refuses introspection and answers the rest', async () => {
    const schema = await run('{ __schema { types { name } } }');
    expect(schema.errors?.[0]?.message).toMatch(/introspection/i);
    expect(schema.data).toBeUndefined();
    const type = await run('{ __type(name: "UsageRecord") { name } }');
    expect(type.errors?.[0]?.message).toMatch(/introspection/i);
    expect((await run('{ models { id } }')).data?.models).toEqual(expect.any(Array));
    expect(((await run('{ _service { sdl } }')).data?._service as { sdl: string }).sdl).toContain('@key');
  });
});
