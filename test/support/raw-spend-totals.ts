import type { Database } from '../../src/db/database';
import type { SpendGroup } from '../../src/usage/spend-groups';
import type { SpendRange } from '../../src/usage/spend-range';
import type { SpendScope } from '../../src/usage/spend-totals';

/** The SQL of each grouping over the records themselves (`u`) and their key (`k`). */
const RAW_GROUP_SQL: Record<SpendGroup, string> = {
  model: 'u."model"',
  day: `to_char(u."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  endpoint: 'u."endpoint"',
  status: 'u."status_code"',
  key: 'u."key_id"',
  account: 'u."account_id"',
  project: 'k."project_id"',
  member: 'k."member_id"',
};

export interface RawSpendRow {
  groups: Record<string, string | number | null>;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  amount_microusd: number;
}

/**
 * The reference spend totals: one GROUP BY over every usage record in the
 * range, nothing rolled up. What the roll-up-backed totals must equal, row
 * for row.
 */
export async function rawSpendTotals(db: Pick<Database, 'query'>, scope: SpendScope, groupBy: SpendGroup[], range: SpendRange): Promise<RawSpendRow[]> {
  const params: unknown[] = [range.from, range.to];
  const where = ['u."created_at" >= $1', 'u."created_at" < $2'];
  if (scope !== 'all_accounts') {
    params.push('keyId' in scope ? scope.keyId : scope.accountId);
    where.push(`${'keyId' in scope ? 'u."key_id"' : 'u."account_id"'} = $3`);
  }
  const sql =
    `SELECT ${groupBy.map((g) => `${RAW_GROUP_SQL[g]} AS "${g}"`).join(', ')}, count(*)::text AS "requests", ` +
    'sum(u."prompt_tokens")::text AS "prompt_tokens", sum(u."completion_tokens")::text AS "completion_tokens", sum(u."amount_microusd")::text AS "amount_microusd" ' +
    `FROM "usage_records" u LEFT JOIN "api_keys" k ON k."id" = u."key_id" WHERE ${where.join(' AND ')} ` +
    `GROUP BY ${groupBy.map((_, i) => i + 1).join(', ')}`;
  const { rows } = await db.query<Record<string, unknown>>(sql, params);
  return rows.map((row) => ({
    groups: Object.fromEntries(groupBy.map((g) => [g, (row[g] as string | number | null) ?? null])),
    requests: Number(row.requests),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    amount_microusd: Number(row.amount_microusd),
  }));
}
