import type { Database } from '../db/database';
import { utcMidnight, type UtcDays } from './usage-rollup-check';
import { bucketSql, RECORD_AS_CHANGE, rollupUpserts, USAGE_ROLLUPS } from './usage-rollups';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Sums the roll-ups of `days` again from the usage records, one UTC day per
 * transaction: idempotent, and exact while the gateway writes. Each day
 * takes a SHARE lock on `usage_records` first, so no record commits or
 * changes its charge while its day is summed (writers wait, or spool and
 * replay once it is done); that day's roll-up rows are then replaced by the
 * records' sums, through the same upserts the record writer runs.
 *
 * Rebuild only days whose records are all still in the database: a day
 * whose records were dropped would lose the sums that outlived them.
 */
export async function rebuildUsageRollups(db: Pick<Database, 'execScript'>, days: UtcDays, onDay?: (day: string) => void): Promise<number> {
  let rebuilt = 0;
  for (let day = utcMidnight(days.from); day < utcMidnight(days.to); day = new Date(day.getTime() + DAY_MS)) {
    try {
      await db.execScript(rebuildDaySql(day, new Date(day.getTime() + DAY_MS)));
    } catch (err) {
      // The embedded database is one session: a failed script must not leave it inside its transaction.
      await db.execScript('ROLLBACK').catch(() => undefined);
      throw err;
    }
    rebuilt++;
    onDay?.(day.toISOString().slice(0, 10));
  }
  return rebuilt;
}

/** One day's script; the bounds are timestamps this module formats, never input. */
function rebuildDaySql(from: Date, to: Date): string {
  const start = `'${from.toISOString()}'::timestamptz`;
  const end = `'${to.toISOString()}'::timestamptz`;
  const deletes = USAGE_ROLLUPS.map((r) => `DELETE FROM "${r.table}" WHERE "${r.grain}" >= ${bucketSql(r.grain, start)} AND "${r.grain}" < ${bucketSql(r.grain, end)};`);
  const dayRecords = `"day_records" AS MATERIALIZED (SELECT ${RECORD_AS_CHANGE} FROM "usage_records" r WHERE r."created_at" >= ${start} AND r."created_at" < ${end})`;
  return [
    'BEGIN;',
    'LOCK TABLE "usage_records" IN SHARE MODE;',
    ...deletes,
    `WITH ${dayRecords}, ${rollupUpserts('"day_records"')} SELECT 1;`,
    'COMMIT;',
  ].join('\n');
}
