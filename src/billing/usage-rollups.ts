/**
 * The roll-ups of usage records (the tables of the `usage_rollups`
 * migration): the sums spend totals read, per UTC day or hour, kept apart by
 * some of the records' columns. Every change to the records' sums reaches
 * them in the same statement or transaction as the change itself, through
 * `rollupUpserts`, so they never count a record twice nor miss one.
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
 * The columns a source of roll-up changes yields: a usage record's
 * dimensions and `created_at`, and what it adds to each figure (a new
 * record adds 1 request and its tokens and charge; a changed charge adds
 * the difference and no request).
 */
export const CHANGE_COLUMNS = ['key_id', 'account_id', 'created_at', 'model', 'endpoint', 'status_code', ...ROLLUP_FIGURES] as const;

/**
 * One `INSERT … ON CONFLICT DO UPDATE` per roll-up, as named WITH items,
 * adding the sums of `changes` (a SQL relation with `CHANGE_COLUMNS`,
 * typically a data-modifying WITH item's RETURNING rows, so only rows that
 * were really inserted or updated count). Each roll-up's rows are inserted
 * in the order of its primary key: two batches that touch the same rows
 * lock them in the same order and cannot deadlock. Groups whose sums are
 * all zero (a charge settled at what was held) write nothing.
 */
export function rollupUpserts(changes: string): string {
  return USAGE_ROLLUPS.map((rollup) => `"${rollup.table}_added" AS (${upsert(rollup, changes)})`).join(', ');
}

function upsert(rollup: UsageRollup, changes: string): string {
  const keyColumns = rollup.keyOrder.map((c) => `"${c}"`);
  const selected = rollup.keyOrder.map((c) => (c === rollup.grain ? `${bucketSql(rollup.grain, 'c."created_at"')} AS "${c}"` : `c."${c}"`));
  const sums = ROLLUP_FIGURES.map((f) => `sum(c."${f}")::bigint`);
  return [
    `INSERT INTO "${rollup.table}" (${[...keyColumns, ...ROLLUP_FIGURES.map((f) => `"${f}"`)].join(', ')})`,
    `SELECT ${[...selected, ...sums].join(', ')} FROM ${changes} c`,
    `GROUP BY ${keyColumns.map((_, i) => i + 1).join(', ')}`,
    `HAVING ${ROLLUP_FIGURES.map((f) => `sum(c."${f}") <> 0`).join(' OR ')}`,
    `ORDER BY ${keyColumns.map((_, i) => i + 1).join(', ')}`,
    `ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${ROLLUP_FIGURES.map((f) => `"${f}" = "${rollup.table}"."${f}" + EXCLUDED."${f}"`).join(', ')}`,
  ].join(' ');
}

/** A usage record as a roll-up change that adds it: one request, its tokens and its charge (`r` names the record). */
export const RECORD_AS_CHANGE =
  'r."key_id", r."account_id", r."created_at", r."model", r."endpoint", r."status_code", ' +
  '1::bigint AS "requests", r."prompt_tokens"::bigint AS "prompt_tokens", r."completion_tokens"::bigint AS "completion_tokens", r."amount_microusd"';

/**
 * Adds `$2` micro-USD to the roll-ups of the record `$1`, whose charge
 * changed by that much (a held charge settled or refunded): to run in the
 * transaction that changed it, after its ledger hold ended (the order the
 * record writer locks in: records, then wallets, then roll-ups).
 */
export const CHARGE_CHANGE_SQL =
  `WITH ${rollupUpserts(
    '(SELECT r."key_id", r."account_id", r."created_at", r."model", r."endpoint", r."status_code", ' +
      '0::bigint AS "requests", 0::bigint AS "prompt_tokens", 0::bigint AS "completion_tokens", $2::bigint AS "amount_microusd" ' +
      'FROM "usage_records" r WHERE r."id" = $1)',
  )} SELECT 1`;
