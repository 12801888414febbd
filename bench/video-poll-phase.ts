import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'pg';
import { onCleanup } from './cleanup';
import type { BenchContext } from './context';
import { createTarget, runLoad, type RequestSpec, type Target } from './load';
import { account, type Phase } from './phases';
import { withClient } from './postgres';
import { CpuMeter, GroupCpuMeter, NoiseMeter, pidsNamed } from './proc-stats';
import { progress } from './progress';
import { startSimulatorProcess, type GatewayProcess, type SimulatorProcess } from './processes';
import { pollStats, taskBilling, taskProgress, waitUntil } from './video-db';
import { readCounter, simulatorReceived, startInstance, stopInstance, writeVideoBenchConfig, type Polling } from './video-gateways';
import { reportVideoRun, type PollCounts, type VideoRun } from './video-report';

/**
 * Many pending video tasks shared by two gateway instances on one database
 * and one Redis: is each task polled on its schedule, once per interval, by
 * one instance only, and what does a poll cost? The first gateway (default
 * polling schedule) makes way for two instances started on a config with a
 * short schedule; instance A stays as the gateway under test for the final
 * usage-record check. A simulator of its own generates every video in
 * `videoGenerationMs`.
 */

const MODEL = 'gen-imagine-video';
const SUBMIT_CONNECTIONS = 16;
/**
 * A fixed schedule: with the step equal to the longest wait, neither the
 * upstream's progress nor the back-off moves a poll, so the polls a task
 * needs are known exactly (`expectedPolls`).
 */
const POLLING: Polling = { first_poll_after_ms: 2_000, interval_ms: 2_000, max_interval_ms: 2_000, timeout_ms: 600_000 };
/** A gateway's poller pauses this long between rounds when nothing was due (the GATEWAY_VIDEO_POLL_IDLE_MS default). */
const POLLER_IDLE_MS = 1_000;
const POLLS_METRIC = 'gateway_video_polls_total';
/** How long after the submissions the tasks may take beyond their generation time. */
const FINISH_GRACE_MS = 60_000;

/** Polls a task needs when none is late: the first at `first_poll_after_ms`, then one per interval until the generation is over. */
function expectedPolls(polling: Polling, generationMs: number): number {
  if (generationMs <= polling.first_poll_after_ms) return 1;
  return Math.ceil((generationMs - polling.first_poll_after_ms) / polling.interval_ms) + 1;
}

const submission: RequestSpec = {
  method: 'POST',
  path: '/v1/videos',
  body: JSON.stringify({ model: MODEL, prompt: 'A paper boat drifting down a rainy street at dusk.', duration: 6, resolution: '480p' }),
  stream: false,
  validate: (text) => (text.includes('"request_id"') ? undefined : `no request_id in ${text.slice(0, 200)}`),
};

interface Instances {
  simulator: SimulatorProcess;
  a: GatewayProcess;
  b: GatewayProcess;
  toA: Target;
  toB: Target;
  /** Stops B and the video simulator (A goes on as the gateway under test). */
  stop(): Promise<void>;
}

/** The video simulator, then the first gateway stopped and instances A and B started on the bench config. */
async function startInstances(ctx: BenchContext, dir: string): Promise<Instances> {
  const { settings, report } = ctx;
  const simulator = await startSimulatorProcess({ SIMULATOR_VIDEO_GENERATION_MS: String(settings.videoGenerationMs), SIMULATOR_REQUEST_LOG_SIZE: '0' });
  const stopSimulator = onCleanup(() => simulator.handle.stop(5_000));
  const configFile = writeVideoBenchConfig(dir, simulator.url, POLLING);
  progress(`video simulator at ${simulator.url}; replacing the gateway with instances A and B (Redis ${settings.redisUrl})`);
  await stopInstance(ctx.gateway, 'gateway (stopped for the video phase)', report);
  const env = { ...ctx.gatewayEnv, GATEWAY_CONFIG: configFile, REDIS_URL: settings.redisUrl, GATEWAY_VIDEO_POLLER: 'true' };
  const [a, b] = await Promise.all([
    startInstance('gateway A', env, settings.gatewayNodeArgs, report),
    startInstance('gateway B', { ...env, GATEWAY_DATA_DIR: path.join(dir, 'data-b') }, settings.gatewayNodeArgs, report),
  ]);
  onCleanup(() => a.handle.stop(5_000));
  const killB = onCleanup(() => b.handle.stop(5_000));
  ctx.gateway = a;
  const toA = createTarget('gateway A', a.url, ctx.viaGateway.headers, SUBMIT_CONNECTIONS);
  const toB = createTarget('gateway B', b.url, ctx.viaGateway.headers, SUBMIT_CONNECTIONS);
  onCleanup(() => Promise.all([toA.pool.destroy(), toB.pool.destroy()]));
  return {
    simulator, a, b, toA, toB,
    async stop() {
      await toB.pool.close().catch(() => undefined);
      await stopInstance(b, 'gateway B', report);
      await killB();
      await stopSimulator();
    },
  };
}

/** Submits the tasks over both instances, then watches them to the end; the measurements for the report. */
async function submitAndWatch(ctx: BenchContext, db: Client, { simulator, a, b, toA, toB }: Instances): Promise<VideoRun> {
  const { videoTasks: tasks, videoGenerationMs: generationMs } = ctx.settings;
  const expected = expectedPolls(POLLING, generationMs);
  const adminToken = String(ctx.gatewayEnv.GATEWAY_ADMIN_TOKEN);
  const readPolls = async (): Promise<PollCounts> => [await readCounter(a, adminToken, POLLS_METRIC), await readCounter(b, adminToken, POLLS_METRIC)];
  const gatewayCpu = () => [new CpuMeter(a.handle.pid), new CpuMeter(b.handle.pid)] as const;
  const receivedBefore = await simulatorReceived(simulator.url);
  const pollsBefore = await readPolls();
  progress(`submitting ${tasks} ${MODEL} tasks (generation ${generationMs / 1000} s) over both instances`);
  const noise = new NoiseMeter(() => [a.handle.pid, b.handle.pid, simulator.handle.pid, process.pid, ...pidsNamed('postgres'), ...pidsNamed('redis-server')]);
  const submitCpu = gatewayCpu();
  const submitted = await runLoad({ targets: [toA, toB], connections: SUBMIT_CONNECTIONS, durationMs: Number.POSITIVE_INFINITY, requests: tasks, request: submission });
  const submitCpuMs = submitCpu[0].elapsedMs() + submitCpu[1].elapsedMs();
  account(ctx, 'video submissions', submitted);
  const [submitA, submitB] = [submitted.byTarget.get(toA.name)!, submitted.byTarget.get(toB.name)!];
  ctx.gatewayVideoTasks += submitA.requests + submitB.requests;
  const accepted = submitA.ok + submitB.ok;

  // The polling window: from the last submission to the last completion.
  const windowCpu = gatewayCpu();
  const postgresCpu = new GroupCpuMeter(() => pidsNamed('postgres'));
  const redisCpu = new GroupCpuMeter(() => pidsNamed('redis-server'));
  const windowStart = performance.now();
  const pollsAtWindowStart = await readPolls();
  // Every accepted task has a usage record: held, or already settled when the submissions took longer than a generation.
  const afterSubmit = await waitUntil(() => taskBilling(db), (s) => (s.held ?? 0) + (s.settled ?? 0) >= accepted, 10_000);
  progress(`${accepted} tasks accepted in ${submitted.elapsedS.toFixed(1)} s; waiting for them to complete`);
  const finished = await waitUntil(() => taskProgress(db), (p) => p.finished >= accepted, generationMs + FINISH_GRACE_MS);
  const windowMs = performance.now() - windowStart;
  const gatewayCpuMs = windowCpu[0].elapsedMs() + windowCpu[1].elapsedMs();
  const [postgresCpuMs, redisCpuMs] = [postgresCpu.elapsedMs(), redisCpu.elapsedMs()];
  ctx.report.addNoise(noise.stop());

  return {
    tasks, generationMs, polling: POLLING, expected, dueAfterMs: POLLING.first_poll_after_ms + (expected - 1) * POLLING.interval_ms, pollerIdleMs: POLLER_IDLE_MS,
    submitA, submitB, submitElapsedS: submitted.elapsedS, submitCpuMs,
    pollsBefore, pollsAtWindowStart, pollsAfter: await readPolls(), simulatorReceived: (await simulatorReceived(simulator.url)) - receivedBefore,
    windowMs, gatewayCpuMs, postgresCpuMs, redisCpuMs,
    billingAfterSubmit: afterSubmit.value, billingAtEnd: await taskBilling(db),
    progress: finished.value, allFinishedInTime: finished.met, stats: await pollStats(db, expected),
  };
}

export const videoTasks: Phase = {
  id: 'video_tasks',
  async run(ctx) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-video-'));
    const removeDir = onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    const instances = await startInstances(ctx, dir);
    const run = await withClient(ctx.gatewayEnv.DATABASE_URL!, (db) => submitAndWatch(ctx, db, instances));
    reportVideoRun(ctx, this.id, run);
    await instances.stop();
    await removeDir();
    // Instance A is the gateway under test from now on (usage-record check, clean exit).
    ctx.viaGateway = instances.toA;
  },
};
