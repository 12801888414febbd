import type { Client } from 'graphql-ws';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { wsClient } from './graphql-test-client';

/** Fields of a usage record that are objects or lists of objects: nine objects per record. */
const RECORD_OBJECTS =
  'edges { node { id billing { amountMicrousd lineItems { dimension } } usage { totalTokens dimensions { name } measurement { input } } routing { statusCode } providerUsage { family } } }';

const aliased = (n: number, field: (i: number) => string) => `{ ${Array.from({ length: n }, (_, i) => field(i)).join(' ')} }`;

/** 1,000 aliases of a 100-record page: the document that ran 1,000 queries for 12 s. */
const THOUSAND_PAGES = aliased(1000, (i) => `u${i}: usageRecords(first: 100) { edges { node { id } } }`);
const ALIASES_31 = aliased(31, (i) => `m${i}: models { id }`);
const ALIASES_30 = aliased(30, (i) => `m${i}: models { id }`);
/** Ten pages of 100 records of nine objects each: 9,010 objects. */
const COSTLY = aliased(10, (i) => `u${i}: usageRecords(first: 100) { ${RECORD_OBJECTS} }`);
/** The same with a page size given as a variable: counted at the largest page, whatever the variable holds. */
const COSTLY_BY_VARIABLE = `query Pages($n: Int) ${aliased(6, (i) => `u${i}: usageRecords(first: $n) { ${RECORD_OBJECTS} }`)}`;
const CHEAP = aliased(6, (i) => `u${i}: usageRecords(first: 1) { ${RECORD_OBJECTS} }`);
/** Thirteen fields deep (the schema has no path that long, so the inner fields are unknown too). */
const DEEP = `{ usageRecords { edges { node { usage { measurement { ${'a { '.repeat(10)}b${' }'.repeat(10)} } } } } } }`;
const DEEP_INTROSPECTION = `{ __type(name: "Query") { ${'ofType { '.repeat(48)}name${' }'.repeat(48)} } }`;

const requestIdPattern = /^req_[0-9a-f]{32}$/;

describe.each(TEST_DATABASES)('GraphQL query limits (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let pageCalls = 0;
  let client: Client;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'limits' });
    const usage = t.gateway.services.usage;
    const page = usage.page.bind(usage);
    usage.page = (...args: Parameters<typeof page>) => {
      pageCalls++;
      return page(...args);
    };
    client = wsClient(t, { authorization: `Bearer ${key}` });
    // GraphQL starts on its first request: started here, so that the refusals below are timed alone.
    expect((await overHttp('{ __typename }')).status).toBe(200);
  });
  afterAll(async () => {
    await client?.dispose();
    await t?.close();
  });

  async function overHttp(query: string, variables?: Record<string, unknown>) {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, requestId: res.headers.get('x-svc-request-id'), body: (await res.json()) as any };
  }

  /** The errors graphql-ws sends for an operation it refuses, or its results. */
  function overWs(query: string, variables?: Record<string, unknown>): Promise<{ errors?: any[]; results: any[] }> {
    return new Promise((resolve) => {
      const results: any[] = [];
      client.subscribe({ query, variables }, {
        next: (result) => results.push(result),
        error: (errors) => resolve({ errors: errors as any[], results }),
        complete: () => resolve({ results }),
      });
    });
  }

  const refusal = (limit: string, message: string, details: Record<string, unknown>) =>
    expect.objectContaining({
      message: expect.stringContaining(message),
      extensions: { code: 'query_too_complex', status: 400, param: null, details: { limit, ...details }, request_id: expect.stringMatching(requestIdPattern) },
    });

  it.each([
    ['1,000 aliased pages (the token limit)', THOUSAND_PAGES, undefined, 'tokens', 'more than 5000 tokens', { maximum: 5000 }],
    ['31 aliases', ALIASES_31, undefined, 'aliases', 'at most 30', { maximum: 30, actual: 31 }],
    ['pages that could return 9,010 objects', COSTLY, undefined, 'cost', 'up to 9010 objects', { maximum: 5000, actual: 9010 }],
    ['pages sized by a variable, counted at 100', COSTLY_BY_VARIABLE, { n: 1 }, 'cost', 'up to 5406 objects', { maximum: 5000, actual: 5406 }],
  ])('refuses %s over HTTP and graphql-ws before any resolver runs', async (_case, query, variables, limit, message, details) => {
    const before = pageCalls;
    const started = Date.now();
    const http = await overHttp(query, variables);
    expect(http.status).toBe(400);
    expect(http.body.data).toBeUndefined();
    expect(http.body.errors).toEqual([refusal(limit, message, details)]);
    expect(http.body.errors[0].extensions.request_id).toBe(http.requestId);
    expect(http.body.errors[0].message).toMatch(/Ask for|split/);

    const ws = await overWs(query, variables);
    expect(ws.results).toEqual([]);
    expect(ws.errors).toEqual([refusal(limit, message, details)]);

    expect(pageCalls).toBe(before);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses an operation nested deeper than 15 fields, with GraphQL\'s own errors', async () => {
    const http = await overHttp(DEEP);
    expect(http.status).toBe(400);
    expect(http.body.errors).toContainEqual(refusal('depth', '16 fields deep', { maximum: 15, actual: 16 }));
    const ws = await overWs(DEEP);
    expect(ws.errors).toContainEqual(refusal('depth', '16 fields deep', { maximum: 15, actual: 16 }));
  });

  it('counts introspection fields in the depth: an ofType chain 50 deep is refused', async () => {
    const http = await overHttp(DEEP_INTROSPECTION);
    expect(http.status).toBe(400);
    expect(http.body.errors).toEqual([refusal('depth', '50 fields deep', { maximum: 15, actual: 50 })]);
  });

  it('serves what is within the limits', async () => {
    for (const query of [ALIASES_30, CHEAP]) {
      const http = await overHttp(query);
      expect(http.status).toBe(200);
      expect(http.body.errors).toBeUndefined();
      const ws = await overWs(query);
      expect(ws.errors).toBeUndefined();
      expect(ws.results[0].errors).toBeUndefined();
    }
    // The cost of a page follows its literal size: the variable form of CHEAP is refused, CHEAP is not.
    expect((await overHttp(COSTLY_BY_VARIABLE, { n: 1 })).status).toBe(400);
    // A syntax error over graphql-ws is reported, not a reason to close the connection.
    const broken = await overWs('{ models { id }');
    expect(broken.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('Syntax Error'), extensions: { request_id: expect.stringMatching(requestIdPattern) } })]);
    expect((await overWs('{ models { id } }')).results[0].data.models.length).toBeGreaterThan(0);
  });

  it('keeps standard introspection and the federation SDL query working', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const everyOption = { descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true };
    for (const query of [getIntrospectionQuery(), getIntrospectionQuery(everyOption)]) {
      const http = await overHttp(query);
      expect(http.status).toBe(200);
      expect(http.body.data.__schema.queryType.name).toBe('Query');
    }
    const sdl = await overHttp('{ _service { sdl } }');
    expect(sdl.status).toBe(200);
    expect(sdl.body.data._service.sdl).toContain('type Query');
  });
});
