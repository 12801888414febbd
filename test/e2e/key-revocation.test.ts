import { valueOf } from '../../src/observability/metrics';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { unreachableRedis } from '../support/unreachable-redis';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../support/test-gateway';
import { instancesOnOneDatabase } from '../support/instances-on-one-database';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Long enough that the cache alone would keep a revoked key working for the whole test. */
const KEY_CACHE_MS = '60000';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

async function createKey(url: string): Promise<{ id: string; key: string }> {
  const res = await fetch(`${url}/api/admin/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'revocation' }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; key: string };
}

async function revoke(url: string, id: string): Promise<void> {
  const res = await fetch(`${url}/api/admin/keys/${id}`, { method: 'DELETE', headers: admin });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { revoked_at: string | null }).revoked_at).not.toBeNull();
}

async function listModels(url: string, key: string): Promise<{ status: number; code?: string }> {
  const res = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, code: ((await res.json()) as { error?: { code: string } }).error?.code };
}

/** Asks until the key is refused or the deadline passes; the last answer. */
async function refusedBy(url: string, key: string, deadline: number): Promise<{ status: number; code?: string }> {
  for (;;) {
    const answer = await listModels(url, key);
    if (answer.status !== 200 || Date.now() >= deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Two gateway processes on one PostgreSQL and one Redis, each caching
 * verified keys for a minute: a key revoked on A is refused by B within a
 * second, though B had it cached.
 */
describe('a key revoked on one instance', () => {
  const instances = instancesOnOneDatabase();

  it('is refused by every other instance within 1 s, whatever their cache time', async () => {
    const common = { REDIS_URL, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_KEY_CACHE_MS: KEY_CACHE_MS, GATEWAY_VIDEO_POLLER: 'false' };
    const a = await instances.spawn(common);
    const b = await instances.spawn(common);
    const instanceB = b;
    // B listens for key changes once Redis has confirmed its subscription.
    await eventually(async () => (instanceB.output().includes('key revocations reach this instance through Redis') ? true : undefined), () => `B to subscribe to key revocations:\n${instanceB.output()}`, 5_000, 20);

    const { id, key } = await createKey(a.url);
    expect(await listModels(b.url, key)).toEqual({ status: 200 }); // now cached on B for a minute
    expect(await listModels(b.url, key)).toEqual({ status: 200 });

    const revokedAt = Date.now();
    await revoke(a.url, id);
    const answer = await refusedBy(b.url, key, revokedAt + 1_000);
    const elapsed = Date.now() - revokedAt;
    expect(answer).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(elapsed).toBeLessThan(1_000);
    expect(await listModels(a.url, key)).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(b.output()).not.toContain('a key change reached this instance only');
  });
});

describe('a key revoked on a single gateway without Redis', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database: 'postgres', env: { GATEWAY_KEY_CACHE_MS: KEY_CACHE_MS } });
  });
  afterAll(() => t?.close());

  it('is refused at once, though it was cached', async () => {
    const { id, key } = await createKey(t.url);
    expect(await listModels(t.url, key)).toEqual({ status: 200 });
    expect(t.gateway.services.keys.cached(key)?.keyId).toBe(id);
    await revoke(t.url, id);
    expect(t.gateway.services.keys.cached(key)).toBeUndefined();
    expect(await listModels(t.url, key)).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(await valueOf(t.gateway.services.metrics.keyChangePublishFailures)).toBe(0);
  });
});

describe('a key revoked while Redis is down', () => {
  const redis = unreachableRedis();
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database: 'postgres', env: { REDIS_URL: redis.url(), GATEWAY_KEY_CACHE_MS: KEY_CACHE_MS } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is still revoked and refused here at once; the publish Redis did not take is counted', async () => {
    const { id, key } = await createKey(t.url);
    expect(await listModels(t.url, key)).toEqual({ status: 200 });
    const startedAt = Date.now();
    await revoke(t.url, id);
    // Not held by Redis: the publish fails fast (its 1 s time-out at most), well inside this bound even on a loaded machine,
    // where waiting out the client's reconnects would take far longer.
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(await listModels(t.url, key)).toEqual({ status: 401, code: 'invalid_api_key' });
    const metrics = await (await fetch(`${t.url}/metrics`, { headers: admin })).text();
    expect(metrics).toMatch(/^gateway_key_change_publish_failures_total 1$/m);
  });
});

describe('a key revoked from the shell (npm run keys -- revoke)', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database: 'postgres', env: { REDIS_URL, GATEWAY_KEY_CACHE_MS: KEY_CACHE_MS } });
  });
  afterAll(() => t?.close());

  it('reaches a running gateway through Redis, though the gateway had the key cached', async () => {
    const { id, key } = await createKey(t.url);
    expect(await listModels(t.url, key)).toEqual({ status: 200 });
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [path.join(__dirname, '..', '..', 'dist', 'main.js'), 'keys', 'revoke', id], {
        env: { PATH: process.env.PATH, DATABASE_URL: t.databaseUrl!, REDIS_URL, GATEWAY_DATA_DIR: t.dataDir, LOG_LEVEL: 'warn' },
      }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))));
    expect(JSON.parse(out)).toMatchObject({ id, revoked_at: expect.any(String) });
    expect(await refusedBy(t.url, key, Date.now() + 1_000)).toEqual({ status: 401, code: 'invalid_api_key' });
  });
});
