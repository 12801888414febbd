import { readUntil } from '../support/eventually';
import { fastVideoConfig } from '../support/fast-video-config';
import { spawnGateway, writeConfigFile, type GatewayProcess } from '../support/gateway-process';
import { createTestDatabase } from '../support/postgres-database';
import { ADMIN_TOKEN } from '../support/test-gateway';
import { unreachableRedis } from '../support/unreachable-redis';

/**
 * Redis down for the whole life of a gateway process: task updates cannot
 * fan out, but the process keeps serving, however long the outage lasts
 * (it used to die about 13 seconds after the first task update).
 */
describe('a gateway whose Redis is down', () => {
  const redis = unreachableRedis();
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await gateway?.kill('SIGTERM');
    await db?.drop();
  });

  it('serves video tasks and chat for longer than the publish retries used to take, and counts what Redis did not take', async () => {
    gateway = await spawnGateway({
      DATABASE_URL: db.url,
      REDIS_URL: redis.url(),
      GATEWAY_CONFIG: writeConfigFile(fastVideoConfig()),
      GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    const created = await fetch(`${gateway.url}/api/admin/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'outage' }) });
    const { key } = (await created.json()) as { key: string };
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const startedAt = Date.now();

    const submitted = await fetch(`${gateway.url}/v1/videos`, { method: 'POST', headers: auth, body: JSON.stringify({ model: 'sora-2', prompt: 'outage [sim gen_ms=300]' }) });
    expect(submitted.status).toBe(200);
    const { id } = (await submitted.json()) as { id: string };
    const { url } = gateway;
    const read = async () => (await (await fetch(`${url}/v1/videos/${id}`, { headers: auth })).json()) as { status: string };
    await readUntil(read, (video) => video.status === 'completed', `video ${id} to complete`, 10_000, 100);

    // A deliberate pause, the point of this test: the process must still be up past the 13 seconds
    // after which the old publish retries rejected unhandled and ended it. There is no event to wait
    // for instead: what is checked is that nothing happens for that long.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 16_000 - (Date.now() - startedAt))));
    expect(gateway.child.exitCode).toBeNull();
    const chat = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: auth, body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'still there?' }] }) });
    expect(chat.status).toBe(200);
    const metrics = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    expect(Number(/^gateway_pubsub_publish_failures_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2);
    expect(metrics).toContain('# TYPE gateway_unhandled_rejections_total counter');
    expect(metrics).not.toMatch(/^gateway_unhandled_rejections_total [1-9]/m);
  }, 40_000);
});
