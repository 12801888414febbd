import { ROLLUP_FIGURES, rollupFor, type RollupDimension, type UsageRollup } from '../billing/usage-rollups';
import { SPEND_GROUP_COLUMNS, spendGroupOrder, type SpendGroup } from './spend-groups';
import type { SpendRange } from './spend-range';
import { spendRangeParts } from './spend-range-parts';
import type { SpendScope } from './spend-totals';

/**
 * The one statement behind a spend total: the range's whole days from the
 * smallest daily roll-up that keeps apart what is asked, its ends' whole
 * hours from an hourly roll-up when one fits, and the rest (the minutes at
 * either end) from the usage records, all in one snapshot, summed by the
 * groupings. Sums come back as text, to be added exactly.
 */
export function spendTotalsQuery(scope: SpendScope, groupBy: readonly SpendGroup[], range: SpendRange): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const filter = scopeFilter(scope);
  const kept = unique(groupBy.map((g) => SPEND_GROUP_COLUMNS[g].needs).filter((n): n is RollupDimension => n !== 'day'));
  const needed = unique([...(filter ? [filter.column] : []), ...kept]);
  const withDay = groupBy.includes('day');
  const daily = rollupFor('day', needed)!;
  const hourly = rollupFor('hour', needed);
  const parts = spendRangeParts(range, hourly !== undefined);

  const figures = ROLLUP_FIGURES.map((f) => `"${f}"`);
  const fromRollup = (rollup: UsageRollup, span: SpendRange) => {
    const bounds = rollup.grain === 'day' ? [utcDate(span.from), utcDate(span.to)] : [span.from, span.to];
    const cast = rollup.grain === 'day' ? '::date' : '::timestamptz';
    const where = [`"${rollup.grain}" >= ${param(bounds[0])}${cast}`, `"${rollup.grain}" < ${param(bounds[1])}${cast}`];
    if (filter) where.push(`"${filter.column}" = ${param(filter.value)}`);
    const day = rollup.grain === 'day' ? '"day"' : `("hour" AT TIME ZONE 'UTC')::date AS "day"`;
    return `SELECT ${[...kept.map((d) => `"${d}"`), ...(withDay ? [day] : []), ...figures].join(', ')} FROM "${rollup.table}" WHERE ${where.join(' AND ')}`;
  };
  const fromRecords = (span: SpendRange) => {
    const where = [`u."created_at" >= ${param(span.from)}`, `u."created_at" < ${param(span.to)}`];
    // One key or account through its (…, created_at) index; every account through the BRIN index on created_at.
    if (filter) where.push(`u."${filter.column}" = ${param(filter.value)}`);
    const columns = [
      ...kept.map((d) => `u."${d}"`),
      ...(withDay ? [`(u."created_at" AT TIME ZONE 'UTC')::date AS "day"`] : []),
      '1::bigint AS "requests"',
      'u."prompt_tokens"::bigint AS "prompt_tokens"',
      'u."completion_tokens"::bigint AS "completion_tokens"',
      'u."amount_microusd"',
    ];
    return `SELECT ${columns.join(', ')} FROM "usage_records" u WHERE ${where.join(' AND ')}`;
  };
  const sources = [
    ...(parts.days ? [fromRollup(daily, parts.days)] : []),
    ...parts.hours.map((span) => fromRollup(hourly!, span)),
    ...parts.records.map(fromRecords),
  ];

  const joinKeys = groupBy.some((g) => SPEND_GROUP_COLUMNS[g].needsKeyJoin);
  const sql = [
    'SELECT',
    [...groupBy.map((g) => `${SPEND_GROUP_COLUMNS[g].sql} AS "${g}"`), ...ROLLUP_FIGURES.map((f) => `sum(p."${f}")::text AS "${f}"`)].join(', '),
    `FROM (${sources.join(' UNION ALL ')}) p`,
    joinKeys ? 'LEFT JOIN "api_keys" k ON k."id" = p."key_id"' : '',
    `GROUP BY ${groupBy.map((_, i) => i + 1).join(', ')}`,
    `ORDER BY ${spendGroupOrder(groupBy).map((g) => `"${g}"`).join(', ')}`,
  ].join(' ');
  return { sql, params };
}

function scopeFilter(scope: SpendScope): { column: RollupDimension; value: string } | null {
  if (scope === 'all_accounts') return null;
  return 'keyId' in scope ? { column: 'key_id', value: scope.keyId } : { column: 'account_id', value: scope.accountId };
}

/** The UTC date of an instant, YYYY-MM-DD. */
function utcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
