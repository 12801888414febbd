/**
 * The roll-ups of usage records (the tables of the `usage_rollups`
 * migration): the sums spend totals read, per UTC day or hour, kept apart by
 * some of the records' columns. Every change to the records' sums reaches
 * them in the statement that makes the change: a batch of new records
 * through `rollupUpserts`, a record whose charge or tokens change later
 * (a held charge settled or refunded, a refund) through the migration's
 * trigger on `usage_records`. So they never count a record twice nor miss
 * one.
 */

/** The columns of usage records a roll-up may keep apart, beside the time. */
export type RollupDimension = 'key_id' | 'account_id' | 'model' | 'endpoint' | 'status_code';

export type RollupGrain = 'day' | 'hour';

export interface UsageRollup {
  table: string;
  /** Its time column: `day` (a UTC date) or `hour` (the start of a UTC hour). */
  grain: RollupGrain;
  /** The columns of usage records it keeps apart (its rows are their distinct values, per day or hour). */
  dimensions: readonly RollupDimension[];
  /** The primary key's columns in order: the order rows are locked in, the same for every writer. */
  keyOrder: readonly string[];
}

/** The sums every roll-up keeps, as usage records' columns name them. */
export const ROLLUP_FIGURES = ['requests', 'prompt_tokens', 'completion_tokens', 'amount_microusd'] as const;

/** Smallest first: a reader takes the first that keeps apart what it needs. */
export const USAGE_ROLLUPS: readonly UsageRollup[] = [
  { table: 'usage_daily', grain: 'day', dimensions: ['model', 'endpoint', 'status_code'], keyOrder: ['day', 'model', 'endpoint', 'status_code'] },
  { table: 'usage_hourly', grain: 'hour', dimensions: ['model', 'endpoint', 'status_code'], keyOrder: ['hour', 'model', 'endpoint', 'status_code'] },
  {
    table: 'usage_daily_by_account',
    grain: 'day',
    dimensions: ['account_id', 'model', 'endpoint', 'status_code'],
    keyOrder: ['account_id', 'day', 'model', 'endpoint', 'status_code'],
  },
  {
    table: 'usage_daily_by_key',
    grain: 'day',
    dimensions: ['key_id', 'account_id', 'model', 'endpoint', 'status_code'],
    keyOrder: ['key_id', 'day', 'account_id', 'model', 'endpoint', 'status_code'],
  },
];

/** The smallest roll-up of `grain` that keeps apart every one of `needed`, if any does. */
export function rollupFor(grain: RollupGrain, needed: readonly RollupDimension[]): UsageRollup | undefined {
  return USAGE_ROLLUPS.find((r) => r.grain === grain && needed.every((d) => r.dimensions.includes(d)));
}

/** The roll-up's time bucket of a timestamptz expression, in UTC whatever the session's time zone. */
export function bucketSql(grain: RollupGrain, createdAt: string): string {
  return grain === 'day' ? `(${createdAt} AT TIME ZONE 'UTC')::date` : `date_trunc('hour', ${createdAt} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
}

/**
 * One `INSERT … ON CONFLICT DO UPDATE` per roll-up, as named WITH items,
 * adding the sums of `records`: a SQL relation of usage records as
 * `RECORD_AS_CHANGE` selects them (their dimensions, `created_at`, and
 * what each adds: one request, its tokens, its charge), typically the
 * RETURNING rows of the WITH item that inserted them, so that only records
 * really inserted count. Each roll-up's rows are inserted in the order of
 * its primary key: two batches that touch the same rows lock them in the
 * same order and cannot deadlock.
 */
export function rollupUpserts(records: string): string {
  return USAGE_ROLLUPS.map((rollup) => `"${rollup.table}_added" AS (${upsert(rollup, records)})`).join(', ');
}

function upsert(rollup: UsageRollup, records: string): string {
  const keyColumns = rollup.keyOrder.map((c) => `"${c}"`);
  const selected = rollup.keyOrder.map((c) => (c === rollup.grain ? `${bucketSql(rollup.grain, 'c."created_at"')} AS "${c}"` : `c."${c}"`));
  const sums = ROLLUP_FIGURES.map((f) => `sum(c."${f}")::bigint`);
  return [
    `INSERT INTO "${rollup.table}" (${[...keyColumns, ...ROLLUP_FIGURES.map((f) => `"${f}"`)].join(', ')})`,
    `SELECT ${[...selected, ...sums].join(', ')} FROM ${records} c`,
    `GROUP BY ${keyColumns.map((_, i) => i + 1).join(', ')}`,
    `ORDER BY ${keyColumns.map((_, i) => i + 1).join(', ')}`,
    `ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${ROLLUP_FIGURES.map((f) => `"${f}" = "${rollup.table}"."${f}" + EXCLUDED."${f}"`).join(', ')}`,
  ].join(' ');
}

/** A usage record (`r`) as the roll-ups add it: its dimensions and time, one request, its tokens and its charge. */
export const RECORD_AS_CHANGE =
  'r."key_id", r."account_id", r."created_at", r."model", r."endpoint", r."status_code", ' +
  '1::bigint AS "requests", r."prompt_tokens"::bigint AS "prompt_tokens", r."completion_tokens"::bigint AS "completion_tokens", r."amount_microusd"';

