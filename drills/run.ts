import os from 'node:os';
import { runCleanups } from '../bench/cleanup';
import { killAllChildren } from '../bench/processes';
import { progress, progressLabel } from '../bench/progress';
import { renderTable } from '../bench/table';
import { DrillReport, type Drill } from './drill';
import { DRILLS } from './drill-list';

/**
 * `npm run drills`: the fault drills (drill-list.ts). By default the short
 * ones, which CI runs; `DRILLS=all` runs every drill, `DRILLS=a,b` the named
 * ones. Prints one table of checks with what each measured; exits non-zero
 * when a check failed.
 *
 * Environment (all optional):
 *   DRILLS=short|all|a,b        which drills
 *   DRILL_FUZZ_RUNS=10000       requests of the fuzz drill
 *   DRILL_FUZZ_SEED=20261127    its seed: fixed by default (CI), `random` for a new one
 *                               (`npm run drills:nightly`: every drill, a new seed)
 *   BENCH_PG_URL                PostgreSQL server for the throw-away databases (default postgres://$USER@127.0.0.1:5432/postgres)
 */
function chosen(): Drill[] {
  const asked = (process.env.DRILLS ?? 'short').split(',').map((s) => s.trim()).filter(Boolean);
  if (asked.includes('all')) return DRILLS;
  if (asked.includes('short')) return DRILLS.filter((d) => d.short);
  const unknown = asked.filter((id) => !DRILLS.some((d) => d.id === id));
  if (unknown.length) throw new Error(`unknown drill(s) ${unknown.join(', ')}; there are: ${DRILLS.map((d) => d.id).join(', ')}`);
  return DRILLS.filter((d) => asked.includes(d.id));
}

async function main(): Promise<number> {
  progressLabel('drills');
  const report = new DrillReport();
  const started = Date.now();
  for (const drill of chosen()) {
    progress(`${drill.id}: ${drill.summary}`);
    report.begin(drill.id);
    const t0 = Date.now();
    try {
      await drill.run(report);
    } catch (err) {
      report.check('ran to the end', err instanceof Error ? err.message.split('\n')[0]! : String(err), false);
      progress(`${drill.id} broke off: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    } finally {
      await runCleanups(progress);
    }
    report.note('duration', `${Math.round((Date.now() - t0) / 1000)} s`);
  }
  process.stdout.write(`\nFault drills (${os.cpus().length} CPUs, ${process.version}, ${Math.round((Date.now() - started) / 1000)} s)\n\n`);
  const rows = report.checks.map((c) => ({ cells: [c.drill, c.what, c.measured, c.ok ? 'ok' : 'FAIL'] }));
  process.stdout.write(renderTable([{ title: 'Drill' }, { title: 'Check' }, { title: 'Measured' }, { title: 'Result' }], rows) + '\n');
  const failed = report.failed;
  if (failed.length) process.stdout.write(`\nFAILED (${failed.length}):\n${failed.map((c) => `  - ${c.drill}: ${c.what}: ${c.measured}`).join('\n')}\n`);
  return failed.length ? 1 : 0;
}

process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAllChildren();
    void runCleanups(progress).finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  async (err: unknown) => {
    process.stderr.write(`[drills] failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    killAllChildren();
    await runCleanups(progress);
    process.exit(1);
  },
);
