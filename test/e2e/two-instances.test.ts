import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startSimulator, type SimulatorHandle } from '@model-gateway/simulator';
import { TaskUpdatedDocument, type TaskUpdatedSubscription } from '../graphql/generated/graphql';
import { fastVideoConfig } from '../support/fast-video-config';
import { spawnGateway, writeConfigFile, type GatewayProcess } from '../support/gateway-process';
import { createTestDatabase } from '../support/postgres-database';
import { ADMIN_TOKEN } from '../support/test-gateway';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Two gateway processes on one PostgreSQL and one Redis: only instance A
 * polls upstream, and a subscriber connected to instance B still sees every
 * change A makes, as it happens.
 */
describe('task updates cross instances through Redis', () => {
  let sim: SimulatorHandle;
  let db: { url: string; drop(): Promise<void> };
  let a: GatewayProcess | undefined;
  let b: GatewayProcess | undefined;

  beforeAll(async () => {
    sim = await startSimulator({ videoGenerationMs: 4000 });
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await sim?.close();
    await db?.drop();
  });

  it("a change made by instance A's poller reaches a subscriber on instance B", async () => {
    const base = fastVideoConfig({ first_poll_after_ms: 150, interval_ms: 150, max_interval_ms: 200 });
    const config = { ...base, providers: { ...base.providers, xai: { type: 'xai' as const, base_url: `${sim.url}/v1`, api_key_env: 'XAI_API_KEY' } } };
    const common = { DATABASE_URL: db.url, REDIS_URL, GATEWAY_CONFIG: writeConfigFile(config), GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, XAI_API_KEY: 'sim', GATEWAY_VIDEO_POLL_IDLE_MS: '50' };
    a = await spawnGateway({ ...common, GATEWAY_VIDEO_POLLER: 'true' });
    b = await spawnGateway({ ...common, GATEWAY_VIDEO_POLLER: 'false' });
    expect(a.output()).toContain('fan out through Redis');

    const keyRes = await fetch(`${a.url}/api/admin/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'two' }) });
    const key = ((await keyRes.json()) as { key: string }).key;
    const submitted = await fetch(`${a.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gen-imagine-video', prompt: 'across instances' }),
    });
    const id = ((await submitted.json()) as { request_id: string }).request_id;

    const client = createClient({ url: `${b.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
    const states: TaskUpdatedSubscription['taskUpdated'][] = [];
    for await (const result of client.iterate<TaskUpdatedSubscription>({ query: print(TaskUpdatedDocument), variables: { id } })) {
      states.push(result.data!.taskUpdated);
    }
    await client.dispose();
    expect(states[0].status).not.toBe('COMPLETED');
    expect(states[states.length - 1]).toMatchObject({ id, status: 'COMPLETED', videoUrl: expect.stringMatching(/^https:/) });
    // The upstream polls came from A: B relayed what A published. B's one read of the task (the subscription's
    // first state) polls it itself when that read finds it due, as any read does; nothing more.
    const polls = async (g: GatewayProcess) => Number(/gateway_video_polls_total\{provider="xai"\} (\d+)/.exec(await (await fetch(`${g.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text())?.[1] ?? 0);
    expect(await polls(a)).toBeGreaterThan(1);
    expect(await polls(b)).toBeLessThanOrEqual(1);
  });
});
