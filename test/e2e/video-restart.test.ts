import { openDatabase } from '../../src/db/database';
import { startSimulator, type SimulatorHandle } from '@model-gateway/simulator';
import { readUntil } from '../support/eventually';
import { fastVideoConfig } from '../support/fast-video-config';
import { spawnGateway, writeConfigFile, type GatewayProcess } from '../support/gateway-process';
import { createTestDatabase } from '../support/postgres-database';
import { ADMIN_TOKEN } from '../support/test-gateway';

/**
 * A gateway killed (SIGKILL) while tasks are pending loses nothing: the next
 * process finds every unfinished task in the database and completes it, and
 * every hold is settled exactly once.
 */
describe('video tasks survive a killed gateway', () => {
  let sim: SimulatorHandle;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    sim = await startSimulator({ videoGenerationMs: 2500 });
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await gateway?.kill('SIGTERM');
    await sim?.close();
    await db?.drop();
  });

  it('resumes polling every unfinished task after SIGKILL and completes them all', async () => {
    const base = fastVideoConfig({ first_poll_after_ms: 200, interval_ms: 200, max_interval_ms: 300 });
    const config = { ...base, providers: { ...base.providers, xai: { type: 'xai' as const, base_url: `${sim.url}/v1`, api_key_env: 'XAI_API_KEY' } } };
    const env = { DATABASE_URL: db.url, GATEWAY_CONFIG: writeConfigFile(config), GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, XAI_API_KEY: 'sim', GATEWAY_VIDEO_POLL_IDLE_MS: '50', GATEWAY_VIDEO_LEASE_MS: '20000' };

    gateway = await spawnGateway(env);
    const keyRes = await fetch(`${gateway.url}/api/admin/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'restart' }) });
    const key = ((await keyRes.json()) as { key: string }).key;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${gateway.url}/v1/videos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gen-imagine-video', prompt: `clip ${i}`, duration: 3 }),
      });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { request_id: string }).request_id);
    }
    const direct = await openDatabase({ databaseUrl: db.url, dataDir: '' });
    // Killed once every task has been polled (each is then mid-way through the poller's work), long before any finishes.
    const polled = () => direct.prisma.videoTask.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, pollCount: true } });
    await readUntil(polled, (tasks) => tasks.every((task) => task.pollCount > 0), 'every task to be polled once', 10_000, 50);
    expect(await gateway.kill('SIGKILL')).toBeNull();

    const pendingAtKill = await direct.prisma.videoTask.count({ where: { id: { in: ids }, status: { in: ['queued', 'in_progress'] } } });
    expect(pendingAtKill).toBe(ids.length);

    gateway = await spawnGateway(env);
    // A task the killed process was polling at that instant stays leased until its lease (20 s) runs out;
    // the rest is slack for a busy machine (the loop ends as soon as every task is done).
    await readUntil(polled, (tasks) => tasks.every((task) => task.status === 'completed'), 'every task to complete after the restart', 50_000, 200);

    for (const id of ids) {
      const res = await fetch(`${gateway.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await res.json()) as any).video.duration).toBe('3');
    }
    const records = await direct.prisma.usageRecord.findMany({ where: { taskId: { in: ids } } });
    expect(records).toHaveLength(ids.length);
    expect(records.every((r) => r.billingState === 'settled' && r.amountMicrousd === 150_000n)).toBe(true);

    // Polled on schedule, not in bursts: about one poll per 200-300 ms of generation, per task.
    const log = (await (await fetch(`${sim.url}/_sim/requests?limit=200`)).json()) as { requests: Array<{ method: string; path: string }> };
    const polls = log.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/videos/'));
    expect(polls.length).toBeLessThan(ids.length * 20);
    await direct.close();
  }, 80_000);
});
