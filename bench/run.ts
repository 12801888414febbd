import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { onCleanup, runCleanups } from './cleanup';
import { Report, readSettings, selected, type BenchContext, type Settings } from './context';
import { runEmbedded } from './embedded';
import { abortAllLoad, createTarget, type Target } from './load';
import { missingPeers } from './peers';
import { PHASES } from './phase-list';
import { MODEL, warmUp } from './phases';
import { createBenchDatabase, countRows, type BenchDatabase } from './postgres';
import { createApiKey, formatExit, killAllChildren, uncleanExit, startBareProxyProcess, startGatewayProcess, startSimulatorProcess, type GatewayProcess } from './processes';
import { progress } from './progress';
import { clockTicksPerSecond, CpuMeter, readMemory } from './proc-stats';
import { renderTable, type Column } from './table';
import { checkNoBuiltInSimulator, simulatorProviderEnv } from './upstream';

/**
 * `npm run bench`: what the gateway adds on top of its upstream. The
 * simulator and the gateway run as their own processes on loopback, the load
 * comes from this process; the table goes to stdout, progress to stderr.
 * Every provider of the gateway is routed to the simulator process, so the
 * gateway runs no in-process simulator (checked in its start-up log). The
 * one-connection phases also go through a bare Node pass-through (bare-proxy.ts),
 * the floor of what one more process and hop cost on the machine.
 * Exits non-zero when a phase fails (errors, usage records missing, unclean
 * exit on SIGTERM), not when a target is missed.
 *
 * Environment (all optional):
 *   BENCH_QUICK=1              `npm run bench:quick`: only streaming_loaded and regression_guard (which fails the run
 *                              on a large regression), 3 s windows, 1 s warm-ups; for CI
 *   BENCH_SECONDS=8            measured window of each load phase
 *   BENCH_WARMUP_SECONDS=1.5   warm-up before each window
 *   BENCH_CONNECTIONS=50       concurrency of the loaded phases
 *   BENCH_IDLE_SECONDS=3       idle time before reading a fresh gateway's RSS
 *   BENCH_WORDS=20             answer length ([sim words=N])
 *   BENCH_PACE_MS=2            ms between stream events ([sim pace=N]); the first event leaves at once
 *   BENCH_PHASES=a,b           only these phases (ids in phase-list.ts: non_streaming_loaded, non_streaming_sequential, file_upload,
 *                              streaming_1, streaming_loaded, portkey, record_writes, spend_control, anthropic_stream, dialects, mcp_tool_call, tracing,
 *                              regression_guard, video_tasks; plus "embedded")
 *   BENCH_ANTHROPIC_WORDS=200  answer length in anthropic_stream
 *   BENCH_UPLOAD_MB=512        size of the file_upload file
 *   BENCH_VIDEO_TASKS=1000     video tasks submitted in video_tasks
 *   BENCH_VIDEO_GENERATION_MS=20000  how long the simulator takes per video in video_tasks
 *   BENCH_REDIS_URL            Redis of the two gateway instances of video_tasks (default redis://127.0.0.1:6379)
 *   BENCH_GATEWAY_NODE_ARGS    extra node flags for the gateway, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
 *   BENCH_PG_URL               PostgreSQL server for the throw-away database (default postgres://$USER@127.0.0.1:5432/postgres)
 *   BENCH_JSON=1               also write bench-results.json in the working directory
 */

const COLUMNS: Column[] = [
  { title: 'Metric' },
  { title: 'Gateway', align: 'right' },
  { title: 'Direct', align: 'right' },
  { title: 'Added', align: 'right' },
  { title: 'Target' },
  { title: 'Check' },
];

const cleanUp = () => runCleanups(progress);

async function runPostgresStage(settings: Settings, report: Report, adminToken: string): Promise<void> {
  progress('starting the simulator and creating the PostgreSQL database');
  const [simulator, database] = await Promise.all([startSimulatorProcess(), createBenchDatabase()]);
  const stopSimulator = onCleanup(() => simulator.handle.stop(5_000));
  const bareProxy = await startBareProxyProcess(simulator.url);
  const stopBareProxy = onCleanup(() => bareProxy.handle.stop(5_000));
  const dropDatabase = onCleanup(() => database.drop());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-'));
  onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  progress(`simulator at ${simulator.url} (pid ${simulator.handle.pid}), database ${database.name}`);

  const gatewayEnv: NodeJS.ProcessEnv = {
    DATABASE_URL: database.url,
    GATEWAY_DATA_DIR: dataDir,
    // Every provider to the simulator process: the gateway must not run a simulator of its own.
    ...simulatorProviderEnv(simulator.url),
    GATEWAY_ADMIN_TOKEN: adminToken,
    // Info for the start-up lines (checked below); nothing is logged per request with LOG_REQUESTS=false.
    LOG_LEVEL: 'info',
    LOG_REQUESTS: 'false',
  };
  const gateway = await startGatewayProcess({ env: gatewayEnv, nodeArgs: settings.gatewayNodeArgs });
  onCleanup(() => gateway.handle.stop(5_000));
  const noBuiltInSimulator = await checkNoBuiltInSimulator(gateway, report, 'gateway');
  progress(`gateway at ${gateway.url} (pid ${gateway.handle.pid}), ready in ${Math.round(gateway.readyMs)} ms; idling ${settings.idleSeconds} s`);
  const idleCpu = new CpuMeter(gateway.handle.pid);
  await new Promise((r) => setTimeout(r, settings.idleSeconds * 1000));
  const idleCpuMsPerS = settings.idleSeconds > 0 ? idleCpu.elapsedMs() / settings.idleSeconds : Number.NaN;
  const idleRss = readMemory(gateway.handle.pid).rssBytes;

  const key = await createApiKey(gateway, adminToken);
  const direct = createTarget('direct', simulator.url, { authorization: 'Bearer bench' }, settings.connections);
  const viaGateway = createTarget('gateway', gateway.url, { authorization: `Bearer ${key}` }, settings.connections);
  const floor = createTarget('bare proxy', bareProxy.url, { authorization: 'Bearer bench' }, 1);
  onCleanup(() => Promise.all([direct.pool.destroy(), viaGateway.pool.destroy(), floor.pool.destroy()]));
  const ctx: BenchContext = {
    settings, simulator, gateway, gatewayEnv, direct, viaGateway, floor, floorPid: bareProxy.handle.pid, gatewayChatRequests: 0, gatewayVideoTasks: 0,
    gatewayIdleRssBytes: idleRss, gatewayIdleCpuMsPerS: idleCpuMsPerS, report,
  };
  report.json.gateway_postgres = { ready_ms: Math.round(gateway.readyMs), in_process_simulator: !noBuiltInSimulator };

  progress('warm-up');
  await warmUp(ctx);
  for (const phase of PHASES.filter((p) => p.id === 'memory' || selected(settings, p.id))) {
    if (interrupted) throw new Error('interrupted');
    progress(`phase ${phase.id}`);
    await phase.run(ctx);
    if (!ctx.gateway.handle.running) throw ctx.gateway.handle.describeFailure(`exited during phase ${phase.id}`);
  }

  await closePools(ctx.direct, ctx.viaGateway, ctx.floor);
  await stopBareProxy();
  await verifyUsageRecords(ctx, ctx.gateway, database, noBuiltInSimulator);
  await stopSimulator();
  await dropDatabase();
}

/** Whether the box was shared: other processes' CPU during the measured windows. */
function reportNoise(report: Report): void {
  const { otherTicks, stealTicks, capacityTicks } = report.noise;
  if (!capacityTicks) return;
  const other = (100 * otherTicks) / capacityTicks;
  const steal = (100 * stealTicks) / capacityTicks;
  report.section(`Machine (${os.cpus().length} CPUs; measured windows and embedded starts)`);
  report.row('CPU taken by other processes', `${other.toFixed(1)} %`, '', '', '< 5 %', other < 5 ? 'quiet' : 'NOISY');
  if (stealTicks > 0) report.row('CPU stolen by the hypervisor', `${steal.toFixed(1)} %`);
  report.json.machine = { other_processes_cpu_pct: Number(other.toFixed(2)), steal_pct: Number(steal.toFixed(2)) };
}

async function closePools(...targets: Target[]): Promise<void> {
  await Promise.all(targets.map((t) => t.pool.close().catch(() => undefined)));
}

/** SIGTERM the gateway (which flushes its usage records), then count them. */
async function verifyUsageRecords(ctx: BenchContext, gateway: GatewayProcess, database: BenchDatabase, noBuiltInSimulator: boolean): Promise<void> {
  progress('stopping the gateway (SIGTERM) and counting usage records');
  const exit = await gateway.handle.stop(30_000);
  const { report } = ctx;
  const problem = uncleanExit(exit);
  const cleanExit = problem === undefined;
  if (problem) {
    const tail = gateway.handle.output.text();
    report.fail(`gateway did not exit cleanly on SIGTERM: ${problem}${tail ? `\n${tail}` : ''}`);
  }
  const found = await countRows(database.url, 'usage_records');
  const expected = ctx.gatewayChatRequests + ctx.gatewayVideoTasks;
  if (found !== expected) report.fail(`usage records: expected ${expected} (one per chat request and video submission through the gateway), found ${found}`);
  report.section('Correctness (PostgreSQL gateway)');
  report.row('providers served by the simulator process', noBuiltInSimulator ? 'all (no built-in simulator)' : 'NOT all', '', '', 'all', noBuiltInSimulator ? 'ok' : 'FAIL');
  report.row('usage records expected / found', `${expected} / ${found}`, '', '', 'equal', found === expected ? 'ok' : 'FAIL');
  report.row('exit on SIGTERM', cleanExit ? 'clean (code 0)' : formatExit(exit), '', '', 'code 0', cleanExit ? 'ok' : 'FAIL');
  report.json.correctness = { usage_records_expected: expected, usage_records_found: found, clean_exit: cleanExit };
}

async function main(): Promise<number> {
  const settings = readSettings();
  const missing = missingPeers(settings);
  if (missing) {
    console.error(missing);
    return 1;
  }
  const adminToken = `bench-admin-${randomBytes(16).toString('hex')}`;
  const report = new Report();
  const startedAt = performance.now();
  partial = { settings, report, startedAt };
  report.json.settings = { ...settings, clk_tck: clockTicksPerSecond(), cpus: os.cpus().length, node: process.version };
  progress(`${settings.seconds} s per measured window, ${settings.warmupSeconds} s warm-up, ${settings.connections} connections`);

  if (PHASES.some((p) => p.id !== 'memory' && selected(settings, p.id))) await runPostgresStage(settings, report, adminToken);
  if (selected(settings, 'embedded') && !interrupted) {
    progress('embedded default (PGlite)');
    await runEmbedded(settings, report, adminToken);
  }
  await cleanUp();
  const failed = printReport(settings, report, startedAt);
  return failed ? 1 : 0;
}

/** The table on stdout, the JSON file if asked; true when the run failed. */
function printReport(settings: Settings, report: Report, startedAt: number): boolean {
  reportNoise(report);
  const totalS = (performance.now() - startedAt) / 1000;
  process.stdout.write(`\nModel gateway bench: ${MODEL} (unless a section names another model) through the gateway vs. straight to the simulator (${settings.seconds} s per window, ${process.version})\n`);
  process.stdout.write(`Machine: ${machine()}\n\n`);
  process.stdout.write(renderTable(COLUMNS, report.rows) + '\n\n');
  process.stdout.write('Added = gateway - direct at the same concurrency. CPU from /proc/<pid>/stat (utime+stime) over the measured window. PASS/MISS are targets, not failures.\n');
  report.json.duration_s = Math.round(totalS);
  report.json.failures = report.failures;
  if (settings.json) {
    writeFileSync('bench-results.json', JSON.stringify(report.json, null, 2) + '\n');
    progress(`results written to ${path.resolve('bench-results.json')}`);
  }
  const failed = report.failures.length > 0;
  if (failed) process.stdout.write(`\nFAILED (${report.failures.length}):\n${report.failures.map((f) => `  - ${f}`).join('\n')}\n`);
  progress(`${failed ? 'failed' : 'done'} in ${Math.round(totalS)} s`);
  return failed;
}

/** The machine the figures come from: CPUs and their model, memory, kernel. */
function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}`;
}

/** What there is to print if the run breaks off. */
let partial: { settings: Settings; report: Report; startedAt: number } | undefined;
/** Set by Ctrl-C: the signal handler cleans up and exits; the main flow just stops. */
let interrupted = false;

process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    progress(`${signal}: stopping`);
    interrupted = true;
    abortAllLoad();
    killAllChildren();
    void cleanUp().finally(() => process.exit(130));
  });
}

main().then(
  (code) => {
    if (!interrupted) process.exit(code);
  },
  async (err: unknown) => {
    if (interrupted) return;
    const message = err instanceof Error ? err.stack ?? err.message : String(err);
    process.stderr.write(`[bench] failed: ${message}\n`);
    abortAllLoad();
    killAllChildren();
    await cleanUp();
    if (partial?.report.rows.length) {
      partial.report.fail(`run aborted: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      printReport(partial.settings, partial.report, partial.startedAt);
    }
    process.exit(1);
  },
);
