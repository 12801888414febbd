import type { Database } from '../db/database';
import { bucketSql, ROLLUP_FIGURES, USAGE_ROLLUPS, type UsageRollup } from './usage-rollups';

/** The UTC days `[from, to)` of a check or a rebuild, as YYYY-MM-DD. */
export interface UtcDays {
  from: string;
  to: string;
}

/** A roll-up's day on which some of its rows differ from the sums of the records. */
export interface RollupDifference {
  table: string;
  day: string;
  /** Rows (groups) of that day whose sums differ, or that only one side has. */
  rows: number;
}

/**
 * Compares each roll-up with the sums of the usage records over `days`,
 * group by group: an empty list means they agree exactly. Records dropped
 * from the database (old partitions) show as differences, since their
 * roll-ups are kept: check only days whose records are all there.
 */
export async function usageRollupDifferences(db: Pick<Database, 'query'>, days: UtcDays): Promise<RollupDifference[]> {
  const differences: RollupDifference[] = [];
  for (const rollup of USAGE_ROLLUPS) {
    const { rows } = await db.query<{ day: string; rows: number }>(differenceSql(rollup), [utcMidnight(days.from), utcMidnight(days.to)]);
    differences.push(...rows.map((row) => ({ table: rollup.table, day: row.day, rows: Number(row.rows) })));
  }
  return differences;
}

function differenceSql(rollup: UsageRollup): string {
  const time = `"${rollup.grain}"`;
  const groups = [time, ...rollup.dimensions.map((d) => `"${d}"`)];
  const bound = (p: string) => bucketSql(rollup.grain, p);
  const recorded =
    `SELECT ${[`${bucketSql(rollup.grain, 'u."created_at"')} AS ${time}`, ...rollup.dimensions.map((d) => `u."${d}"`)].join(', ')}, ` +
    `count(*) AS "requests", sum(u."prompt_tokens") AS "prompt_tokens", sum(u."completion_tokens") AS "completion_tokens", sum(u."amount_microusd") AS "amount_microusd" ` +
    `FROM "usage_records" u WHERE u."created_at" >= $1 AND u."created_at" < $2 GROUP BY ${groups.map((_, i) => i + 1).join(', ')}`;
  const rolled = `SELECT ${[...groups, ...ROLLUP_FIGURES.map((f) => `"${f}"`)].join(', ')} FROM "${rollup.table}" WHERE ${time} >= ${bound('$1::timestamptz')} AND ${time} < ${bound('$2::timestamptz')}`;
  const differs = ROLLUP_FIGURES.map((f) => `r."${f}" IS DISTINCT FROM k."${f}"`).join(' OR ');
  const day = rollup.grain === 'day' ? time : `(${time} AT TIME ZONE 'UTC')::date`;
  return (
    `WITH "recorded" AS (${recorded}), "rolled" AS (${rolled}) ` +
    `SELECT to_char(${day}, 'YYYY-MM-DD') AS "day", count(*)::int AS "rows" ` +
    `FROM "recorded" r FULL JOIN "rolled" k USING (${groups.join(', ')}) WHERE ${differs} GROUP BY 1 ORDER BY 1`
  );
}

export function utcMidnight(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}
