import OpenAI from 'openai';
import { TOO_MANY_FAILED_AUTHENTICATIONS } from '../../src/graphql/subscription-server';
import { ModelsDocument } from '../graphql/generated/graphql';
import { graphqlHttp, runOverWs, wsClient } from '../graphql/graphql-test-client';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../support/test-gateway';

const FAILURES_PER_MINUTE = 5;
/** Background work that would run statements of its own while the flood is counted: off. */
const QUIET = { GATEWAY_VIDEO_POLLER: 'false', GATEWAY_FILE_SWEEP_MS: '0', GATEWAY_CATALOG_POLL_MS: '0', GATEWAY_KEY_CACHE_MS: '600000' };

/**
 * Bogus keys from one client address: a few are looked up, then the address
 * is refused (429 with Retry-After) without a database lookup, while a valid
 * key the gateway has cached is served as before, on every door.
 */
describe('repeated authentication failures from one address', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ env: { ...QUIET, GATEWAY_AUTH_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE) } });
  });
  afterAll(() => t?.close());

  const models = async (secret: string) => {
    const res = await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), code: ((await res.json()) as { error?: { code: string } }).error?.code };
  };

  it('are looked up a few times, then refused with 429 and no lookup, and never slow a valid cached key', async () => {
    const key = await t.createKey({ name: 'valid' });
    const sdk = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    expect((await sdk.models.list()).data.length).toBeGreaterThan(0);

    for (let i = 0; i < FAILURES_PER_MINUTE; i++) expect(await models(`sk-gw-bogus-${i}`)).toMatchObject({ status: 401, code: 'invalid_api_key' });
    const statementsBefore = t.gateway.db.statements.value;
    const flood = await Promise.all(Array.from({ length: 500 }, (_, i) => models(`sk-gw-flood-${i}`)));
    expect(new Set(flood.map((a) => `${a.status} ${a.code}`))).toEqual(new Set(['429 too_many_failed_authentications']));
    expect(Number(flood[0].retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(flood[0].retryAfter)).toBeLessThanOrEqual(60);
    expect(t.gateway.db.statements.value - statementsBefore).toBe(0);

    // The valid key, cached, is served on every door.
    expect((await sdk.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 })).choices).toHaveLength(1);
    expect((await graphqlHttp(t, key, ModelsDocument)).errors).toBeUndefined();
    const valid = wsClient(t, { authorization: `Bearer ${key}` });
    try {
      const outcome = await runOverWs(valid, ModelsDocument, {});
      expect(outcome.failure).toBeUndefined();
      expect(outcome.results[0]?.errors).toBeUndefined();
    } finally {
      await valid.dispose();
    }
    // A bogus key is refused on GraphQL too, without a lookup.
    const bogus = await graphqlHttp(t, 'sk-gw-bogus-graphql', ModelsDocument);
    expect([bogus.status, bogus.errors?.[0]?.extensions?.code]).toEqual([429, 'too_many_failed_authentications']);
    const bogusSocket = wsClient(t, { authorization: 'Bearer sk-gw-bogus-ws' });
    try {
      const refused = await runOverWs(bogusSocket, ModelsDocument, {});
      expect((refused.failure as { code?: number } | undefined)?.code).toBe(TOO_MANY_FAILED_AUTHENTICATIONS);
    } finally {
      await bogusSocket.dispose();
    }
  });
});

describe('admin writes', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  });
  afterAll(() => t?.close());

  it('take a JSON body only with a JSON Content-Type: text/plain is 415 in the error envelope', async () => {
    const send = (contentType: string | undefined) =>
      fetch(`${t.url}/api/admin/keys`, {
        method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(contentType ? { 'content-type': contentType } : {}) }, body: JSON.stringify({ name: 'typed' }),
      });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const res = await send(contentType);
      expect(res.status).toBe(415);
      const body = (await res.json()) as { error: { code: string; message: string; request_id: string } };
      expect(body.error).toMatchObject({ code: 'unsupported_media_type', request_id: expect.stringMatching(/^req_/) });
      expect(body.error.message).toContain('application/json');
    }
    expect((await send('application/json; charset=utf-8')).status).toBe(201);
  });
});
