import { randomUUID } from 'node:crypto';
import { IdempotencyStore } from '../../src/http/idempotency-store';
import { eventually } from '../support/eventually';
import { fastVideoConfig } from '../support/fast-video-config';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway, usageRecordOf } from '../support/test-gateway';

/**
 * `Idempotency-Key`: a client retry of a request that creates or charges
 * gets the first answer back and is charged once; the same key with another
 * request is refused; a first attempt that failed upstream frees the key.
 */
describe.each(TEST_DATABASES)('idempotent retries (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: fastVideoConfig() });
    key = await t.createKey({ name: 'idempotency' });
  });
  afterAll(() => t?.close());

  const post = async (path: string, body: unknown, idempotencyKey?: string, apiKey = key) => {
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any, requestId: res.headers.get('x-svc-request-id')! };
  };
  const record = (requestId: string, apiKey = key) =>
    usageRecordOf(t, apiKey, requestId);
  /** Upstream calls whose body carries `marker` (a video task's polls carry none, so they are not counted as calls). */
  const upstreamCallsWith = async (marker: string) => (await simulatorRequests(t)).requests.filter((r) => JSON.stringify(r.body ?? null).includes(marker)).length;

  it('a retried video submission gets the first task back and is charged once', async () => {
    const idem = randomUUID();
    const body = { model: 'gen-imagine-video', prompt: `A kite over the sea ${idem}`, duration: 2 };
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const first = await post('/v1/videos', body, idem);
    const retry = await post('/v1/videos', body, idem);
    expect(first.status).toBe(200);
    expect(retry).toMatchObject({ status: 200, body: { request_id: first.body.request_id } });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('x-svc-replayed-request-id')).toBe(first.requestId);
    expect(await upstreamCallsWith(idem)).toBe(1);
    const [charged, replayed] = await Promise.all([record(first.requestId), record(retry.requestId)]);
    expect(charged.billing.amount_microusd).toBeGreaterThan(0);
    expect(replayed).toMatchObject({ billing: { amount_microusd: 0 }, routing: { status_code: 200 } });
  });

  it('the same key with another request is 409 idempotency_key_reused; another API key has its own keys', async () => {
    const idem = randomUUID();
    expect((await post('/v1/chat/completions', { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'one' }] }, idem)).status).toBe(200);
    const reused = await post('/v1/chat/completions', { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'two' }] }, idem);
    expect({ status: reused.status, code: reused.body.error.code }).toEqual({ status: 409, code: 'idempotency_key_reused' });
    const other = await t.createKey({ name: 'other' });
    const fresh = await post('/v1/chat/completions', { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'two' }] }, idem, other);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a replayed answer is the first answer, byte for byte, and the upstream was called once', async () => {
    const idem = randomUUID();
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const body = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: `Say something ${idem}` }] };
    const first = await post('/v1/chat/completions', body, idem);
    const retry = await post('/v1/chat/completions', body, idem);
    expect(retry.body).toEqual(first.body);
    expect(await upstreamCallsWith(idem)).toBe(1);
  });

  it('a first attempt that failed upstream frees the key: the retry runs and succeeds', async () => {
    const idem = randomUUID();
    // Two failures: the gateway tries the route once more itself before the call fails.
    const body = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: `Flaky ${idem} [sim fail_times=2 status=500]` }] };
    const first = await post('/v1/chat/completions', body, idem);
    expect(first.status).toBeGreaterThanOrEqual(500);
    await eventually(async () => {
      const retry = await post('/v1/chat/completions', body, idem);
      return retry.status === 200 && !retry.headers.get('idempotent-replayed') ? true : undefined;
    }, 'the retry to run again');
  });

  it('a retry while the first still runs is 409 idempotency_request_in_progress with Retry-After', async () => {
    const idem = randomUUID();
    const body = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: `Slow ${idem} [sim latency=800]` }] };
    const first = post('/v1/chat/completions', body, idem);
    // The key is claimed before the upstream call: once the upstream has the first request, it is in progress.
    await eventually(async () => ((await upstreamCallsWith(idem)) === 1 ? true : undefined), 'the first attempt to reach the upstream');
    const early = await post('/v1/chat/completions', body, idem);
    expect({ status: early.status, code: early.body.error.code, retryAfter: early.headers.get('retry-after') }).toEqual({ status: 409, code: 'idempotency_request_in_progress', retryAfter: '1' });
    expect((await first).status).toBe(200);
  });

  it('answers past their 24 hours are swept, and their keys can be claimed again', async () => {
    const store = new IdempotencyStore(t.gateway.db);
    const claim = { keyId: 'key_sweep', idempotencyKey: randomUUID(), endpoint: '/v1/chat/completions', requestHash: 'h', requestId: 'req_old' };
    const dayAndAHourAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    expect(await store.claim(claim, dayAndAHourAgo)).toEqual({ kind: 'claimed' });
    await store.complete(claim, { status: 200, contentType: 'application/json', body: '{}' });
    expect((await store.claim({ ...claim, requestHash: 'other', requestId: 'req_new' })).kind).toBe('claimed');
    const stale = { ...claim, idempotencyKey: randomUUID() };
    await store.claim(stale, dayAndAHourAgo);
    expect(await store.deleteExpired()).toBeGreaterThanOrEqual(1);
    expect((await store.claim({ ...stale, requestId: 'req_again' })).kind).toBe('claimed');
  });

  it.each([
    ['a stream', { model: 'gpt-4.1-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }, 'a-key', /stream/],
    ['a key that is not printable ASCII', { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }] }, 'clé', /printable ASCII/],
  ])('refuses %s with a 400 naming the header', async (_name, body, idem, message) => {
    const res = await post('/v1/chat/completions', body, idem);
    expect({ status: res.status, param: res.body.error.param }).toEqual({ status: 400, param: 'Idempotency-Key' });
    expect(res.body.error.message).toMatch(message);
  });
});
