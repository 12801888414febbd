import { createServer, type Server } from 'node:net';
import { fastVideoConfig } from '../support/fast-video-config';
import { spawnGateway, writeConfigFile, type GatewayProcess } from '../support/gateway-process';
import { createTestDatabase } from '../support/postgres-database';
import { ADMIN_TOKEN } from '../support/test-gateway';

/**
 * Redis down for the whole life of a gateway process: task updates cannot
 * fan out, but the process keeps serving, however long the outage lasts
 * (it used to die about 13 seconds after the first task update).
 */
describe('a gateway whose Redis is down', () => {
  let dead: Server;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    // Accepts and drops every connection, as a Redis that is restarting or unreachable does.
    dead = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await gateway?.kill('SIGTERM');
    await new Promise((resolve) => dead.close(resolve));
    await db?.drop();
  });

  it('serves video tasks and chat for longer than the publish retries used to take, and counts what Redis did not take', async () => {
    gateway = await spawnGateway({
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${(dead.address() as { port: number }).port}`,
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
    let status = '';
    for (let i = 0; i < 100 && status !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = ((await (await fetch(`${gateway.url}/v1/videos/${id}`, { headers: auth })).json()) as { status: string }).status;
    }
    expect(status).toBe('completed');

    // Past the 13 seconds after which the old publish rejected unhandled and ended the process.
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
