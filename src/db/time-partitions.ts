import type { Database } from './database';

/** The tables range-partitioned by month of `created_at` (UTC), each with its `<table>_default` partition. */
export const TIME_PARTITIONED_TABLES = ['usage_records', 'ledger_entries', 'stored_responses'] as const;
export type TimePartitionedTable = (typeof TIME_PARTITIONED_TABLES)[number];

/** Month partitions made ahead of the current one, so that a write never finds none (the default partition is the safety net). */
export const MONTHS_AHEAD = 2;

export interface MonthPartition {
  name: string;
  /** The first instant of its month, and the first of the next (exclusive). */
  from: Date;
  to: Date;
}

/** What became of a partition past its retention: dropped, or kept and why (something in it still in use). */
export interface DropOutcome {
  partition: string;
  outcome: string;
}

const MONTH_NAME = /_(\d{4})_(\d{2})$/;

/**
 * The month partitions of the time-partitioned tables: made ahead, rows the
 * default partition caught moved into their month's, and whole months
 * dropped past a retention. The work is the database's own functions
 * (the time_partitions migration), each one transaction under one advisory
 * lock, so that any number of instances may run it at once.
 */
export class TimePartitions {
  constructor(private readonly db: Pick<Database, 'query'>) {}

  /**
   * Makes the partitions of `now`'s month and the `MONTHS_AHEAD` after it,
   * and the month partitions of rows the default partition holds (moving
   * them there). Returns the partitions it made.
   */
  async prepare(now: Date): Promise<string[]> {
    const made: string[] = [];
    for (const table of TIME_PARTITIONED_TABLES) {
      const months = Array.from({ length: MONTHS_AHEAD + 1 }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1)));
      for (const month of [...months, ...(await this.monthsInDefault(table))]) {
        const { rows } = await this.db.query<{ made: string | null }>('SELECT gateway_ensure_month_partition($1, $2) AS "made"', [table, month]);
        if (rows[0]?.made) made.push(rows[0].made);
      }
    }
    return made;
  }

  /** The month partitions of `table`, oldest first. */
  async list(table: TimePartitionedTable): Promise<MonthPartition[]> {
    const { rows } = await this.db.query<{ name: string }>(
      'SELECT c."relname" AS "name" FROM pg_inherits i JOIN pg_class c ON c."oid" = i."inhrelid" WHERE i."inhparent" = to_regclass($1)',
      [`"${table}"`],
    );
    return rows
      .map(({ name }) => ({ name, match: MONTH_NAME.exec(name) }))
      .filter((p): p is { name: string; match: RegExpExecArray } => p.match !== null && p.name === `${table}_${p.match[1]}_${p.match[2]}`)
      .map(({ name, match }) => {
        const year = Number(match[1]);
        const month = Number(match[2]) - 1;
        return { name, from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month + 1, 1)) };
      })
      .sort((a, b) => a.from.getTime() - b.from.getTime());
  }

  /**
   * Drops, whole, each month partition of `table` that ends at or before
   * `before` (every row in it older), unless the database finds something
   * in it still in use. Oldest first; one that is kept stops the ones after
   * it, so that what is kept is always one unbroken stretch of months.
   */
  async dropBefore(table: TimePartitionedTable, before: Date): Promise<DropOutcome[]> {
    const outcomes: DropOutcome[] = [];
    for (const partition of await this.list(table)) {
      if (partition.to > before) break;
      const { rows } = await this.db.query<{ outcome: string }>('SELECT gateway_drop_month_partition($1, $2) AS "outcome"', [table, partition.name]);
      const outcome = rows[0]?.outcome ?? 'no answer';
      outcomes.push({ partition: partition.name, outcome });
      if (outcome !== 'dropped') break;
    }
    return outcomes;
  }

  /** The months of the rows the default partition caught (a write for a month with no partition). */
  private async monthsInDefault(table: TimePartitionedTable): Promise<Date[]> {
    const { rows } = await this.db.query<{ month: Date | string }>(
      `SELECT DISTINCT date_trunc('month', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS "month" FROM "${table}_default"`,
      [],
    );
    return rows.map((r) => new Date(r.month));
  }
}
