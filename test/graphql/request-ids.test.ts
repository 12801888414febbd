import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** Every answer of /graphql, whichever stage refused it, names the request id of its X-Svc-Request-Id header. */
describe.each(TEST_DATABASES)('GraphQL refusals carry the request id (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, env: { GATEWAY_GRAPHQL_MAX_BODY_BYTES: '4096' } });
    key = await t.createKey({ name: 'request ids' });
  });
  afterAll(() => t?.close());

  async function call(method: string, opts: { body?: string; headers?: Record<string, string>; search?: string } = {}) {
    const res = await fetch(`${t.url}/graphql${opts.search ?? ''}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      body: opts.body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, requestId: res.headers.get('x-svc-request-id'), body: JSON.parse(text) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> } };
  }

  function expectRequestId(answer: Awaited<ReturnType<typeof call>>, status: number, message: string | RegExp) {
    expect(answer.status).toBe(status);
    expect(answer.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(answer.body.errors.length).toBeGreaterThan(0);
    for (const error of answer.body.errors) expect(error.extensions.request_id).toBe(answer.requestId);
    expect(answer.body.errors[0].message).toMatch(message);
  }

  const query = '{ models { id } }';

  it("has Apollo's own HTTP-level refusals carry it", async () => {
    expectRequestId(await call('POST', { body: JSON.stringify({ query: 123 }) }), 400, 'GraphQL queries must be strings');
    expectRequestId(await call('POST', { body: JSON.stringify({ query: { kind: 'Document', definitions: [] } }) }), 400, 'GraphQL queries must be strings');
    expectRequestId(await call('POST', { body: '{}' }), 400, 'POST body missing');
    expectRequestId(await call('POST', { body: JSON.stringify([{ query }]) }), 400, /batching/i);
    expectRequestId(await call('POST', { body: JSON.stringify({ query, variables: '{}' }) }), 400, '`variables`');
    expectRequestId(await call('GET', { search: `?${new URLSearchParams({ query })}`, headers: { 'content-type': 'text/plain' } }), 415, 'content-type');
    expectRequestId(await call('GET', { search: `?${new URLSearchParams({ query, variables: 'not json' })}` }), 400, 'invalid JSON');
    const put = await call('PUT', { body: JSON.stringify({ query }) });
    expectRequestId(put, 405, 'GET/POST');
    expect(put.headers.get('allow')).toBe('GET, POST');
    expectRequestId(await call('POST', { body: JSON.stringify({ query }), headers: { accept: 'text/html' } }), 406, "'accept' header");
  });

  it('has parse and validation errors carry it, as before', async () => {
    expectRequestId(await call('POST', { body: JSON.stringify({ query: '{ models {' }) }), 400, 'Syntax Error');
    expectRequestId(await call('POST', { body: JSON.stringify({ query: '{ nope }' }) }), 400, 'nope');
  });

  it('has the refusals before Apollo (key, body) carry it, in the GraphQL shape', async () => {
    const anonymous = await call('POST', { body: JSON.stringify({ query }), headers: { authorization: '' } });
    expectRequestId(anonymous, 401, 'No API key given');
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const cases: Array<[Parameters<typeof call>[1], number, string]> = [
      [{ body: '{"query": ' }, 400, 'invalid_json'],
      [{ body: JSON.stringify({ query, padding: 'x'.repeat(5000) }) }, 413, 'request_body_too_large'],
      [{ body: JSON.stringify({ query }), headers: { 'content-type': 'application/json; charset=latin1' } }, 415, 'unsupported_media_type'],
      [{ body: 'not gzip', headers: { 'content-encoding': 'gzip' } }, 400, 'invalid_body_encoding'],
    ];
    for (const [opts, status, code] of cases) {
      const answer = await call('POST', opts);
      expectRequestId(answer, status, /./);
      expect(answer.body.errors[0].extensions).toMatchObject({ code, status });
    }
  });
});
