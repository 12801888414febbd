import { parseArgs } from 'node:util';
import type { GatewayEnv } from '../config/env';
import { openDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrate';
import { usageRollupDifferences, type UtcDays } from './usage-rollup-check';
import { rebuildUsageRollups } from './usage-rollup-rebuild';

const USAGE =
  'usage: rollups check [--from YYYY-MM-DD] [--to YYYY-MM-DD] | rollups rebuild [--from YYYY-MM-DD] [--to YYYY-MM-DD]\n' +
  '  UTC days, --to exclusive; by default from the oldest usage record\'s day through today';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Days a check reads at once, so that progress shows on a large table. */
const CHECK_STEP_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `gateway rollups check`: compares the spend totals' roll-ups with the sums
 * of the usage records, day by day, and lists the days that differ (exit
 * code 1). `gateway rollups rebuild`: sums those days again from the records,
 * one day per transaction, safe while the gateway writes. Both open the
 * database themselves (the embedded one allows a single process: stop the
 * gateway first).
 */
export async function runRollupsCommand(argv: string[], env: GatewayEnv): Promise<number> {
  const [sub, ...rest] = argv;
  let values: { from?: string; to?: string };
  try {
    ({ values } = parseArgs({ args: rest, options: { from: { type: 'string' }, to: { type: 'string' } } }));
  } catch (err) {
    return fail(`rollups: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  if (sub !== 'check' && sub !== 'rebuild') return fail(USAGE);
  for (const name of ['from', 'to'] as const) {
    const value = values[name];
    if (value !== undefined && (!DAY.test(value) || Number.isNaN(Date.parse(value)))) return fail(`rollups ${sub}: --${name} must be a date, YYYY-MM-DD`);
  }

  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: `${env.dataDir}/pglite` });
  try {
    await migrate(db);
    const oldest = await oldestRecordDay(db);
    if (oldest === null && values.from === undefined) {
      process.stdout.write('no usage records: nothing to compare or rebuild\n');
      return 0;
    }
    const days: UtcDays = { from: values.from ?? oldest!, to: values.to ?? addDays(new Date().toISOString().slice(0, 10), 1) };
    if (days.from >= days.to) return fail(`rollups ${sub}: --to (${days.to}) must come after --from (${days.from})`);
    if (sub === 'rebuild') {
      if (oldest !== null && days.from < oldest) {
        return fail(`rollups rebuild: --from ${days.from} is before the oldest usage record (${oldest}); the roll-ups of earlier days outlive their records and would be lost`);
      }
      const count = await rebuildUsageRollups(db, days, (day) => process.stderr.write(`rebuilt ${day}\n`));
      process.stdout.write(`rebuilt the roll-ups of ${count} day(s), ${days.from} to ${days.to} (exclusive)\n`);
      return 0;
    }
    let differing = 0;
    for (let from = days.from; from < days.to; from = addDays(from, CHECK_STEP_DAYS)) {
      const to = addDays(from, CHECK_STEP_DAYS) < days.to ? addDays(from, CHECK_STEP_DAYS) : days.to;
      for (const d of await usageRollupDifferences(db, { from, to })) {
        differing++;
        process.stdout.write(`${d.day} ${d.table}: ${d.rows} group(s) differ from the records' sums\n`);
      }
      process.stderr.write(`checked ${from} to ${to}\n`);
    }
    if (differing) {
      process.stdout.write('run `gateway rollups rebuild --from DAY --to DAY` for those days\n');
      return 1;
    }
    process.stdout.write(`the roll-ups equal the records' sums, ${days.from} to ${days.to} (exclusive)\n`);
    return 0;
  } finally {
    await db.close();
  }
}

async function oldestRecordDay(db: Database): Promise<string | null> {
  const { rows } = await db.query<{ day: string | null }>(`SELECT to_char(min("created_at") AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "day" FROM "usage_records"`, []);
  return rows[0]?.day ?? null;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}
