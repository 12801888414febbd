import OpenAI from 'openai';
import { TaskUpdatedDocument, type TaskUpdatedSubscription } from '../graphql/generated/graphql';
import { runOverWs, wsClient } from '../graphql/graphql-test-client';
import { readUntil } from '../support/eventually';
import { loadGatewayConfig } from '../../src/config/load-config';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/**
 * Video tasks on the default catalog and the default poll schedule, on the
 * built-in simulator (1.5 s a video): polled on the simulator's clock, not
 * after a fixed 30 s, with their progress on the way. The poller's idle
 * pause is 30 s here: a task can only finish in seconds if the poller wakes
 * for its due time.
 */
describe.each(TEST_DATABASES)('video tasks polled on their expected time (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, env: { GATEWAY_VIDEO_POLL_IDLE_MS: '30000' } });
    key = await t.createKey({ name: 'live' });
  });
  afterAll(() => t?.close());

  /** The task's row as stored: reading it does not poll the task, as a client's GET of a due task would. */
  const row = (id: string) => t.gateway.db.prisma.videoTask.findUniqueOrThrow({ where: { id } });

  it.each([
    ['sora-2 with the openai SDK', 'sora-2'],
    ['gen-imagine-video', 'gen-imagine-video'],
  ])('a 1.5 s simulated generation (%s) completes within seconds, in a few upstream polls', async (_, model) => {
    const started = Date.now();
    let id: string;
    if (model === 'sora-2') {
      const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
      id = (await client.videos.create({ model, prompt: 'A lighthouse at dusk' })).id;
    } else {
      const res = await fetch(`${t.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model, prompt: 'A cat surfing', duration: 2 }) });
      id = ((await res.json()) as { request_id: string }).request_id;
    }
    const done = await readUntil(() => row(id), (task) => task.status !== 'queued' && task.status !== 'in_progress', `task ${id} to finish`, 20_000, 50);
    const elapsedMs = Date.now() - started;
    expect(done.status).toBe('completed');
    // The schedule aims at about 2 s end to end; the bound leaves room for a busy machine and is far below the old 30 s first poll.
    expect(elapsedMs).toBeLessThan(10_000);
    // Half-way, at the finish the progress pointed to, and perhaps once more: never a poll every few milliseconds.
    expect(done.pollCount).toBeGreaterThanOrEqual(1);
    expect(done.pollCount).toBeLessThanOrEqual(4);
  });

  it('a claim says how soon the next task falls due, so an idle poller can wake for it', async () => {
    const probe = await startTestGateway({ database: 'pglite', env: { GATEWAY_VIDEO_POLLER: 'false' } });
    try {
      const probeKey = await probe.createKey();
      const res = await fetch(`${probe.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${probeKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'sora-2', prompt: 'due soon' }) });
      expect(res.status).toBe(200);
      const claim = await probe.gateway.services.videoTasks.claimDue('probe', 10, 20_000);
      if (claim.tasks.length === 0) {
        // Due half-way through the simulator's 1.5 s, counted from the submission.
        expect(claim.soonestDueInMs).toBeGreaterThan(0);
        expect(claim.soonestDueInMs).toBeLessThanOrEqual(750);
      } else {
        // A machine slow enough for the task to be due already: the claim took it.
        expect(claim.tasks.map((task) => task.status)).toEqual(['queued']);
      }
    } finally {
      await probe.close();
    }
  });
});

describe.each(TEST_DATABASES)('a taskUpdated subscriber sees the progress (%s)', (database) => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('queued, then in_progress with a rising progress, then completed, in that order', async () => {
    // The default schedule but for a first poll at 2 s: time enough for the subscription to begin while
    // the task is surely still queued, on any machine. The simulator takes 4 s for this video.
    const base = loadGatewayConfig({}).config;
    const config = { ...base, models: base.models.map((m) => (m.video ? { ...m, video: { ...m.video, polling: { ...m.video.polling, first_poll_after_ms: 2_000 } } } : m)) };
    t = await startTestGateway({ database, config });
    const key = await t.createKey();
    // GraphQL loads on its first request: loaded before the task exists, so that its load (seconds on a
    // busy machine) is not taken from the 2 s in which the subscription must begin.
    const warm = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(warm.status).toBe(200);
    const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    const { id } = await client.videos.create({ model: 'sora-2', prompt: 'A paper boat in the rain [sim gen_ms=4000]' });

    const ws = wsClient(t, { authorization: `Bearer ${key}` });
    const { results, failure } = await runOverWs(ws, TaskUpdatedDocument, { id });
    await ws.dispose();
    expect(failure).toBeUndefined();
    const states = results.map((r) => (r.data as TaskUpdatedSubscription).taskUpdated);
    const statuses = states.map((s) => s.status);

    expect(statuses[0]).toBe('QUEUED');
    expect(statuses[statuses.length - 1]).toBe('COMPLETED');
    const running = states.filter((s) => s.status === 'IN_PROGRESS');
    expect(running.length).toBeGreaterThanOrEqual(1);
    for (const s of running) {
      expect(s.progress).toBeGreaterThan(0);
      expect(s.progress).toBeLessThan(100);
    }
    // In order: queued, then only in_progress, then completed; the progress never goes back.
    const firstRunning = statuses.indexOf('IN_PROGRESS');
    expect(statuses.slice(0, firstRunning).every((s) => s === 'QUEUED')).toBe(true);
    expect(statuses.slice(firstRunning, -1).every((s) => s === 'IN_PROGRESS')).toBe(true);
    const progress = states.map((s) => s.progress);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
    expect(states[states.length - 1]).toMatchObject({ id, progress: 100 });
  });
});
