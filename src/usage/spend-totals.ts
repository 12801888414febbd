import { ROLLUP_FIGURES } from '../billing/usage-rollups';
import type { Database } from '../db/database';
import type { SpendGroup } from './spend-groups';
import type { SpendRange } from './spend-range';
import { spendTotalsQuery } from './spend-totals-query';

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

/**
 * Spend totals for dashboards, read from the roll-ups of usage records
 * (billing/usage-rollups.ts) and, for the minutes at the ends of a range
 * that are not whole hours or days, from the records (spend-totals-query.ts):
 * the same sums as the records', without reading every record in range.
 * Sums are read as text and added as BigInt, so nothing is rounded on the
 * way; they become JSON numbers only when they are exact.
 */
export class SpendTotals {
  constructor(private readonly db: Database) {}

  async totals(scope: SpendScope, groupBy: SpendGroup[], range: SpendRange): Promise<SpendTotalsView> {
    const { sql, params } = spendTotalsQuery(scope, groupBy, range);
    const { rows } = await this.db.query<Record<string, unknown>>(sql, params);

    const total = { requests: 0n, prompt_tokens: 0n, completion_tokens: 0n, amount_microusd: 0n };
    const data = rows.map((row) => {
      const groups: Partial<Record<SpendGroup, string | number | null>> = {};
      for (const g of groupBy) groups[g] = (row[g] as string | number | null | undefined) ?? null;
      const figures = {} as SpendFigures;
      for (const f of ROLLUP_FIGURES) {
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
