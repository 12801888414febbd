import type { Database } from '../db/database';
import { SPEND_GROUP_COLUMNS, spendGroupOrder, type SpendGroup } from './spend-groups';
import type { SpendRange } from './spend-range';

/** Whose records a total covers: one key, one account, or (operator only) every account. */
export type SpendScope = { keyId: string } | { accountId: string } | 'all_accounts';

export interface SpendFigures {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  amount_microusd: number;
}

/** One group: its grouping values (only those asked for), then its figures. */
export type SpendTotalsRow = Partial<Record<SpendGroup, string | number | null>> & SpendFigures;

export interface SpendTotalsView {
  object: 'list';
  group_by: SpendGroup[];
  from: string;
  to: string;
  data: SpendTotalsRow[];
  total: SpendFigures;
}

const FIGURES = ['requests', 'prompt_tokens', 'completion_tokens', 'amount_microusd'] as const;

/**
 * Spend totals for dashboards: one GROUP BY query over usage_records.
 * The scope's column comes first in the WHERE clause's index, so a key's
 * totals read the (key_id, created_at) index and an account's the
 * (account_id, created_at) one. Sums are read as text and added as BigInt,
 * so nothing is rounded on the way; they become JSON numbers only when
 * they are exact.
 */
export class SpendTotals {
  constructor(private readonly db: Database) {}

  async totals(scope: SpendScope, groupBy: SpendGroup[], range: SpendRange): Promise<SpendTotalsView> {
    const params: unknown[] = [range.from, range.to];
    const where = ['u."created_at" >= $1', 'u."created_at" < $2'];
    if (scope !== 'all_accounts') {
      params.push('keyId' in scope ? scope.keyId : scope.accountId);
      where.push(`${'keyId' in scope ? 'u."key_id"' : 'u."account_id"'} = $3`);
    }
    const ordered = spendGroupOrder(groupBy);
    const joinKeys = groupBy.some((g) => SPEND_GROUP_COLUMNS[g].needsKeyJoin);
    const sql = [
      'SELECT',
      [
        ...groupBy.map((g) => `${SPEND_GROUP_COLUMNS[g].sql} AS "${g}"`),
        'count(*)::text AS "requests"',
        'coalesce(sum(u."prompt_tokens"), 0)::text AS "prompt_tokens"',
        'coalesce(sum(u."completion_tokens"), 0)::text AS "completion_tokens"',
        'coalesce(sum(u."amount_microusd"), 0)::text AS "amount_microusd"',
      ].join(', '),
      'FROM "usage_records" u',
      joinKeys ? 'LEFT JOIN "api_keys" k ON k."id" = u."key_id"' : '',
      `WHERE ${where.join(' AND ')}`,
      `GROUP BY ${groupBy.map((_, i) => i + 1).join(', ')}`,
      `ORDER BY ${ordered.map((g) => `"${g}"`).join(', ')}`,
    ].join(' ');
    const { rows } = await this.db.query<Record<string, unknown>>(sql, params);

    const total = { requests: 0n, prompt_tokens: 0n, completion_tokens: 0n, amount_microusd: 0n };
    const data = rows.map((row) => {
      const groups: Partial<Record<SpendGroup, string | number | null>> = {};
      for (const g of groupBy) groups[g] = (row[g] as string | number | null | undefined) ?? null;
      const figures = {} as SpendFigures;
      for (const f of FIGURES) {
        const value = BigInt(String(row[f]));
        total[f] += value;
        figures[f] = exactNumber(value, f);
      }
      return { ...groups, ...figures };
    });
    return {
      object: 'list',
      group_by: groupBy,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      data,
      total: {
        requests: exactNumber(total.requests, 'requests'),
        prompt_tokens: exactNumber(total.prompt_tokens, 'prompt_tokens'),
        completion_tokens: exactNumber(total.completion_tokens, 'completion_tokens'),
        amount_microusd: exactNumber(total.amount_microusd, 'amount_microusd'),
      },
    };
  }
}

/** A BigInt sum as a JSON number, or a loud failure: a rounded amount of money is worse than none. */
export function exactNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(`spend total ${what} = ${value} is past 2^53 - 1 and cannot be a JSON number exactly; ask for a shorter range or finer groups`);
  }
  return Number(value);
}
