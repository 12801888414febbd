import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from './cleanup';
import { against, type Report, type Settings } from './context';
import { createTarget, runLoad } from './load';
import { MODEL } from './phases';
import { CpuMeter, NoiseMeter, readMemory } from './proc-stats';
import { createApiKey, startGatewayProcess, startSimulatorProcess, uncleanExit, type GatewayProcess } from './processes';
import { progress } from './progress';
import { round } from './stats';
import { fmt } from './table';
import { simulatorProviderEnv } from './upstream';

/** Aims for the embedded default, the gateway a newcomer runs first. */
const CPU_LIMIT_MS = 0.4;
const LOADED_RSS_LIMIT_MB = 200;
const PEAK_RSS_LIMIT_MB = 250;

interface Start {
  label: string;
  readyMs: number;
  idleRssBytes: number;
  /** VmHWM when the start was measured: the start-up's own peak. */
  peakBytes: number;
}

/**
 * The embedded default: no DATABASE_URL, so PGlite in a fresh data folder.
 * Started twice on the same folder: the first start creates the database,
 * the restart opens it. Time from spawn to /healthz answering, VmRSS once
 * the process has idled a few seconds and its peak (VmHWM) so far. The
 * restarted gateway then serves the non-streaming load of the PostgreSQL
 * stage (its own simulator process as the upstream): CPU per request, RSS
 * under load, and the peak.
 */
export async function runEmbedded(settings: Settings, report: Report, adminToken: string): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
  const removeDataDir = onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const simulator = await startSimulatorProcess({ SIMULATOR_REQUEST_LOG_SIZE: '0' });
  const stopSimulator = onCleanup(() => simulator.handle.stop(5_000));
  const env = { GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn', LOG_REQUESTS: 'false', ...simulatorProviderEnv(simulator.url) };
  const starts: Start[] = [];
  let loaded: Awaited<ReturnType<typeof loadEmbedded>> | undefined;
  try {
    for (const label of ['first start (creates the database)', 'restart (same data folder)']) {
      let gatewayPid: number | undefined;
      const noise = new NoiseMeter(() => (gatewayPid ? [process.pid, gatewayPid] : [process.pid]));
      const gateway = await startGatewayProcess({ name: 'gateway (PGlite)', env, nodeArgs: settings.gatewayNodeArgs, timeoutMs: 120_000 });
      gatewayPid = gateway.handle.pid;
      try {
        await new Promise((r) => setTimeout(r, settings.idleSeconds * 1000));
        report.addNoise(noise.stop());
        const memory = readMemory(gateway.handle.pid);
        starts.push({ label, readyMs: gateway.readyMs, idleRssBytes: memory.rssBytes, peakBytes: memory.hwmBytes });
        if (starts.length === 2) loaded = await loadEmbedded(settings, report, gateway, adminToken);
      } finally {
        const problem = uncleanExit(await gateway.handle.stop());
        if (problem) report.fail(`PGlite gateway (${label}) did not exit cleanly on SIGTERM: ${problem}`);
      }
    }
  } finally {
    await stopSimulator();
    await removeDataDir();
  }
  report.section('Embedded default (PGlite, fresh GATEWAY_DATA_DIR)');
  for (const s of starts) report.row(`${s.label}: ready / idle RSS / peak so far`, `${fmt.ms(s.readyMs, 0)} / ${fmt.mb(s.idleRssBytes)} / ${fmt.mb(s.peakBytes)}`);
  const firstPeakMb = (starts[0]?.peakBytes ?? Number.NaN) / 1048576;
  report.row('peak RSS of the first start (initdb included)', fmt.mb(starts[0]?.peakBytes ?? Number.NaN), '', '', `<= ${PEAK_RSS_LIMIT_MB} MB`, against(firstPeakMb, PEAK_RSS_LIMIT_MB));
  if (loaded) {
    report.row(`non-streaming, ${settings.connections} connections: throughput`, fmt.rate(loaded.rps));
    report.row('CPU per request', fmt.ms(loaded.cpuMsPerRequest, 3), '', '', `<= ${CPU_LIMIT_MS} ms`, against(loaded.cpuMsPerRequest, CPU_LIMIT_MS));
    report.row('RSS under load (highest sampled) / peak (VmHWM)', `${fmt.mb(loaded.loadedRssBytes)} / ${fmt.mb(loaded.peakBytes)}`, '', '', `<= ${LOADED_RSS_LIMIT_MB} / ${PEAK_RSS_LIMIT_MB} MB`,
      [against(loaded.loadedRssBytes / 1048576, LOADED_RSS_LIMIT_MB), against(loaded.peakBytes / 1048576, PEAK_RSS_LIMIT_MB)].includes('MISS') ? 'MISS' : 'PASS');
  }
  report.json.embedded_pglite = {
    starts: starts.map((s) => ({ start: s.label, ready_ms: Math.round(s.readyMs), idle_rss_mb: round(s.idleRssBytes / 1048576, 1), peak_rss_mb: round(s.peakBytes / 1048576, 1) })),
    ...(loaded ? { loaded: { requests_per_s: round(loaded.rps, 1), cpu_ms_per_request: round(loaded.cpuMsPerRequest, 4), rss_under_load_mb: round(loaded.loadedRssBytes / 1048576, 1), peak_rss_mb: round(loaded.peakBytes / 1048576, 1) } } : {}),
  };
}

/** The non-streaming chat load of the PostgreSQL stage on the embedded gateway: a warm-up, then one measured window. */
async function loadEmbedded(settings: Settings, report: Report, gateway: GatewayProcess, adminToken: string) {
  progress('embedded: non-streaming load');
  const key = await createApiKey(gateway, adminToken);
  const target = createTarget('gateway (PGlite)', gateway.url, { authorization: `Bearer ${key}` }, settings.connections);
  try {
    const request = {
      method: 'POST' as const,
      path: '/v1/chat/completions',
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: `Say hello to the benchmark. [sim words=${settings.words}]` }] }),
      stream: false,
    };
    const spec = { targets: [target], connections: settings.connections, request };
    await runLoad({ ...spec, durationMs: Math.max(2, settings.warmupSeconds) * 1000 });
    const cpu = new CpuMeter(gateway.handle.pid);
    const noise = new NoiseMeter(() => [gateway.handle.pid, process.pid]);
    let loadedRssBytes = 0;
    const sampler = setInterval(() => (loadedRssBytes = Math.max(loadedRssBytes, readMemory(gateway.handle.pid).rssBytes)), 250);
    const result = await runLoad({ ...spec, durationMs: settings.seconds * 1000 });
    clearInterval(sampler);
    report.addNoise(noise.stop());
    const r = result.byTarget.get(target.name)!;
    if (r.non2xx || r.failures) report.fail(`embedded load: ${r.non2xx} non-2xx, ${r.failures} failed of ${r.requests}; ${r.errorSamples.join(' | ')}`);
    return { rps: r.requests / r.elapsedS, cpuMsPerRequest: cpu.elapsedMs() / Math.max(1, r.requests), loadedRssBytes, peakBytes: readMemory(gateway.handle.pid).hwmBytes };
  } finally {
    await target.pool.destroy();
  }
}
