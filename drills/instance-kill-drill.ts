import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withClient } from '../bench/postgres';
import { onCleanup } from '../bench/cleanup';
import { progress } from '../bench/progress';
import { writeVideoBenchConfig } from '../bench/video-gateways';
import type { Drill, DrillReport } from './drill';
import { chat, closedLoop, keyFor, openStage, recordsOf, share, sleep, startGateway, waitFor, type Answer } from './drill-kit';
import { startPrivateRedis } from './private-services';

const TASKS = 40;
const CONNECTIONS = 6;
const LEASE_MS = 20_000;
const GENERATION_MS = 4_000;

/**
 * SIGKILL of one of two instances under load. Both poll video tasks (a
 * lease each, 20 s) and serve chat calls; A is killed while its tasks are
 * generating and calls are in flight. B takes over A's tasks once their
 * leases run out and finishes every one; A restarts on its data folder
 * (its spool, if any, is replayed). Then every answered call has its
 * record, and every task finished once, with one record and one charge.
 */
export const instanceKillDrill: Drill = {
  id: 'instance_kill',
  short: false,
  summary: `SIGKILL of one of two instances with ${TASKS} video tasks generating and chat calls in flight`,
  async run(report: DrillReport) {
    const redis = await startPrivateRedis();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'drill-kill-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    const stage = await openStage({ REDIS_URL: redis.url, GATEWAY_VIDEO_LEASE_MS: String(LEASE_MS), GATEWAY_VIDEO_POLL_IDLE_MS: '200' });
    stage.env.GATEWAY_CONFIG = writeVideoBenchConfig(dir, stage.simulator.url, { first_poll_after_ms: 1_000, interval_ms: 1_000, max_interval_ms: 1_000, timeout_ms: 600_000 });
    const aDir = path.join(dir, 'data-a');
    let a = await startGateway(stage, 'gateway A', {}, aDir);
    const b = await startGateway(stage, 'gateway B');
    const key = await keyFor(stage, a, 'kill');

    // Tasks submitted to A: its poller leases them.
    const tasks: string[] = [];
    for (let i = 0; i < TASKS; i++) {
      const res = await fetch(`${a.url}/v1/videos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sora-2', prompt: `kill drill ${i} [sim gen_ms=${GENERATION_MS}]`, seconds: '4', size: '720x1280' }),
      });
      const body = (await res.json()) as { id?: string };
      if (res.status === 200 && body.id) tasks.push(body.id);
    }
    report.check('tasks accepted before the kill', share(tasks.length, TASKS), tasks.length === TASKS);

    let stopping = false;
    const load = closedLoop(CONNECTIONS, () => stopping, (n) => chat(n % 2 ? a.url : b.url, key, `kill drill call ${n} [sim words=30 pace=5]`, n % 3 === 0));
    await sleep(1_500);
    progress('instance_kill: SIGKILL to gateway A');
    const killedAt = Date.now();
    a.handle.child.kill('SIGKILL');
    await a.handle.exited;
    await sleep(3_000);
    stopping = true;
    const answers: Answer[] = await load;

    const statusOf = async (id: string) => ((await (await fetch(`${b.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status?: string }).status;
    const finished = await waitFor(async () => (await Promise.all(tasks.map(statusOf))).every((s) => s === 'completed' || s === 'failed'), LEASE_MS + GENERATION_MS + 40_000, 1_000);
    const tookOverS = Math.round((Date.now() - killedAt) / 1000);
    const states = await Promise.all(tasks.map(statusOf));
    const completed = states.filter((s) => s === 'completed').length;
    report.check(`B finished A's tasks (lease ${LEASE_MS / 1000} s)`, `${share(completed, tasks.length)} completed, ${tookOverS} s after the kill`, finished && completed === tasks.length);

    progress('instance_kill: restarting gateway A on its data folder');
    a = await startGateway(stage, 'gateway A (restarted)', {}, aDir);
    await sleep(3_000);
    await a.handle.stop(30_000);
    await b.handle.stop(30_000);

    // What the clients saw: a call cut by the kill may have no answer; every answered call must have its record.
    const answered = answers.filter((x) => x.status > 0 && x.requestId);
    const cut = answers.length - answered.length;
    const whole = answered.filter((x) => x.status === 200 && x.complete);
    report.note('chat calls: answered whole / cut or refused (A killed or down)', `${whole.length} / ${cut + answered.length - whole.length}`);
    const ids = whole.map((x) => x.requestId!);
    const records = await recordsOf(stage.database.url, ids);
    report.check('every call answered whole has its usage record, once', `${share(records.distinct, ids.length)}; ${records.found - records.distinct} twice`, records.missing.length === 0 && records.found === records.distinct);
    const taskRecords = await taskBilling(stage.database.url, tasks);
    report.check('each task: one record, charged once', `${taskRecords.records} records, ${taskRecords.charged} charged, for ${tasks.length} tasks`, taskRecords.records === tasks.length && taskRecords.charged === tasks.length);
  },
};

/** The submission records of these tasks, and how many of them charge something. */
function taskBilling(databaseUrl: string, taskIds: string[]): Promise<{ records: number; charged: number }> {
  return withClient(databaseUrl, async (db) => {
    const rows = await db.query<{ records: string; charged: string }>(
      `SELECT count(*)::text AS records, count(*) FILTER (WHERE u.amount_microusd > 0)::text AS charged
         FROM usage_records u JOIN video_tasks t ON t.request_id = u.id WHERE t.id = ANY($1)`,
      [taskIds],
    );
    return { records: Number(rows.rows[0]?.records ?? 0), charged: Number(rows.rows[0]?.charged ?? 0) };
  });
}
