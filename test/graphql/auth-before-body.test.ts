import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** What came back for a request sent through node:http, whose body may never be finished. */
interface RawAnswer {
  status: number;
  requestId: string | undefined;
  body: any;
  /** Whether the request body had been sent in full when the answer came. */
  bodyFinished: boolean;
}

/**
 * POSTs to /graphql with `declaredLength` in Content-Length but sends only
 * `sent` of it, then waits for the answer: a gateway that reads the body
 * before it checks the key never answers.
 */
function postUnfinished(t: TestGateway, headers: Record<string, string>, sent: Buffer, declaredLength: number): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}/graphql`, { method: 'POST', headers: { ...headers, 'content-length': String(declaredLength) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode!, requestId: res.headers['x-svc-request-id'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), bodyFinished: false });
        req.destroy();
      });
    });
    req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
    req.setTimeout(5000, () => {
      req.destroy();
      reject(new Error('no answer within 5 s while the body was unfinished: the gateway waited for the body before checking the key'));
    });
    req.write(sent);
  });
}

async function post(t: TestGateway, headers: Record<string, string>, body: Buffer | string): Promise<{ status: number; requestId: string | null; body: any }> {
  const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers, body });
  return { status: res.status, requestId: res.headers.get('x-svc-request-id'), body: await res.json() };
}

/** A small gzip body that inflates to about `inflated` bytes of JSON. */
function gzipBomb(inflated: number): Buffer {
  return gzipSync(`{"query": "{ models { id } }", "padding": "${' '.repeat(inflated)}"}`, { level: 9 });
}

/** 18 KB of gzip, 19 MB of JSON once inflated. */
let bomb19MB: Buffer | undefined;
const bigBomb = () => (bomb19MB ??= gzipBomb(19 * 1024 * 1024));

describe.each(TEST_DATABASES)('GraphQL over HTTP checks the key before it reads the body (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'graphql body' });
  });
  afterAll(() => t?.close());

  const unauthenticated = (requestId: string | null | undefined, explanation: string) => ({
    errors: [{ message: expect.stringContaining(explanation), extensions: { code: 'UNAUTHENTICATED', status: 401, request_id: requestId } }],
  });

  it.each([
    ['no key', {}, 'No API key given'],
    ['an unknown key', { authorization: 'Bearer sk-gw-not-a-real-key' }, 'not valid'],
  ])('refuses %s with 401 before the body has even arrived', async (_case, auth, explanation) => {
    // 18 KB of gzip announced, 1 KB of it sent: the answer must not wait for (nor inflate) the rest.
    const bomb = bigBomb();
    const answer = await postUnfinished(t, { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb.subarray(0, 1024), bomb.length);
    expect(answer.status).toBe(401);
    expect(answer.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(answer.body).toEqual(unauthenticated(answer.requestId, explanation));
  });

  it('refuses an anonymous body it could not decode or parse with 401, not with what the body is', async () => {
    const headers = { 'content-type': 'application/json' };
    const notGzip = await post(t, { ...headers, 'content-encoding': 'gzip' }, 'not gzip at all');
    expect(notGzip.status).toBe(401);
    expect(notGzip.body).toEqual(unauthenticated(notGzip.requestId, 'No API key given'));
    const notJson = await post(t, { ...headers, authorization: 'Bearer sk-gw-not-a-real-key' }, '{"query": ');
    expect(notJson.status).toBe(401);
    expect(notJson.body).toEqual(unauthenticated(notJson.requestId, 'not valid'));
  });

  it('answers 30 anonymous gzip bombs with 401 each, and the connection stays usable', async () => {
    const bomb = bigBomb();
    expect(bomb.length).toBeLessThan(40 * 1024);
    const rssBefore = process.memoryUsage().rss;
    const answers = await Promise.all(Array.from({ length: 30 }, () => post(t, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb)));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(401));
    // Inflated, the 30 bodies would be 570 MB; none of it is ever made.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
    const after = await post(t, { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, JSON.stringify({ query: '{ models { id } }' }));
    expect(after.status).toBe(200);
  });

  it('bounds a GraphQL body to 1 MiB once inflated (GATEWAY_GRAPHQL_MAX_BODY_BYTES), far under the REST limit', async () => {
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // 2 MiB inflated: under REST's 20 MiB, over GraphQL's 1 MiB.
    const big = await post(t, { ...auth, 'content-encoding': 'gzip' }, gzipBomb(2 * 1024 * 1024));
    expect(big.status).toBe(413);
    expect(big.requestId).toMatch(/^req_/);
    expect(big.body).toEqual({
      errors: [{ message: expect.stringContaining('larger than 1048576 bytes'), extensions: { code: 'request_body_too_large', status: 413, param: null, request_id: big.requestId } }],
    });
    const plain = await post(t, auth, JSON.stringify({ query: '{ models { id } }', padding: ' '.repeat(1024 * 1024) }));
    expect(plain.status).toBe(413);
    expect(plain.body.errors[0].extensions).toMatchObject({ code: 'request_body_too_large', request_id: plain.requestId });
    const small = await post(t, { ...auth, 'content-encoding': 'gzip' }, gzipBomb(512 * 1024));
    expect(small.status).toBe(200);
    expect(small.body.data.models.length).toBeGreaterThan(0);
  });
});

describe('GATEWAY_GRAPHQL_MAX_BODY_BYTES', () => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('sets the GraphQL body limit', async () => {
    t = await startTestGateway({ env: { GATEWAY_GRAPHQL_MAX_BODY_BYTES: '2048' } });
    const key = await t.createKey({ name: 'small graphql bodies' });
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const over = await post(t, auth, JSON.stringify({ query: '{ models { id } }', padding: 'x'.repeat(2048) }));
    expect(over.status).toBe(413);
    expect(over.body.errors[0].message).toContain('larger than 2048 bytes');
    expect((await post(t, auth, JSON.stringify({ query: '{ models { id } }' }))).status).toBe(200);
    // REST keeps its own limit.
    const chat = await fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: `hello ${'x'.repeat(4096)}` }] }),
    });
    expect(chat.status).toBe(200);
  });
});
