import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from './cleanup';
import type { Report, Settings } from './context';
import { startGatewayProcess, uncleanExit } from './processes';
import { NoiseMeter, readMemory } from './proc-stats';
import { round } from './stats';
import { fmt } from './table';

/**
 * The embedded default: no DATABASE_URL, so PGlite in a fresh data folder.
 * Started twice on the same folder: the first start creates the database,
 * the restart opens it. Time from spawn to /healthz answering, and VmRSS
 * once the process has idled a few seconds.
 */
export async function runEmbedded(settings: Settings, report: Report, adminToken: string): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
  const removeDataDir = onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const starts: Array<{ label: string; readyMs: number; idleRssBytes: number }> = [];
  try {
    for (const label of ['first start (creates the database)', 'restart (same data folder)']) {
      let gatewayPid: number | undefined;
      const noise = new NoiseMeter(() => (gatewayPid ? [process.pid, gatewayPid] : [process.pid]));
      const gateway = await startGatewayProcess({
        name: 'gateway (PGlite)',
        env: { GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn', LOG_REQUESTS: 'false' },
        nodeArgs: settings.gatewayNodeArgs,
        timeoutMs: 120_000,
      });
      gatewayPid = gateway.handle.pid;
      try {
        await new Promise((r) => setTimeout(r, settings.idleSeconds * 1000));
        report.addNoise(noise.stop());
        starts.push({ label, readyMs: gateway.readyMs, idleRssBytes: readMemory(gateway.handle.pid).rssBytes });
      } finally {
        const problem = uncleanExit(await gateway.handle.stop());
        if (problem) report.fail(`PGlite gateway (${label}) did not exit cleanly on SIGTERM: ${problem}`);
      }
    }
  } finally {
    await removeDataDir();
  }
  report.section('Embedded default (PGlite, fresh GATEWAY_DATA_DIR)');
  for (const s of starts) report.row(`${s.label}: ready / idle RSS`, `${fmt.ms(s.readyMs, 0)} / ${fmt.mb(s.idleRssBytes)}`);
  report.json.embedded_pglite = starts.map((s) => ({ start: s.label, ready_ms: Math.round(s.readyMs), idle_rss_mb: round(s.idleRssBytes / 1048576, 1) }));
}
