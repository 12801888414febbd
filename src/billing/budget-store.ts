import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';

export type BudgetScope = 'key' | 'project' | 'member' | 'account';
export type BudgetPeriod = 'total' | 'monthly' | 'daily';
export type BudgetMode = 'hard' | 'soft';

export interface BudgetInput {
  accountId: string;
  scope: BudgetScope;
  /** The key, project or member id; the account id for an account budget. */
  scopeId: string;
  period: BudgetPeriod;
  limitMicrousd: bigint;
  mode: BudgetMode;
}

export interface BudgetView {
  id: string;
  object: 'budget';
  account_id: string;
  scope: BudgetScope;
  scope_id: string;
  period: BudgetPeriod;
  mode: BudgetMode;
  limit_microusd: number;
  /** The current period (UTC): its start, what was charged in it, what open holds take from it, and what is left. */
  period_start: string;
  spent_microusd: number;
  held_microusd: number;
  remaining_microusd: number;
  created_at: string;
}

interface BudgetRow {
  id: string;
  account_id: string;
  scope: BudgetScope;
  scope_id: string;
  period: BudgetPeriod;
  mode: BudgetMode;
  limit_microusd: string;
  period_start: Date | string;
  spent_microusd: string | null;
  held_microusd: string | null;
  created_at: Date | string;
}

const SELECT_BUDGETS =
  'SELECT b."id", b."account_id", b."scope", b."scope_id", b."period", b."mode", b."limit_microusd"::text, b."created_at", ' +
  'gateway_period_start(b."period", now()) AS "period_start", u."spent_microusd"::text, u."held_microusd"::text ' +
  'FROM "budgets" b LEFT JOIN "budget_usage" u ON u."budget_id" = b."id" AND u."period_start" = gateway_period_start(b."period", now()) ' +
  'WHERE b."deleted_at" IS NULL';

/**
 * Budgets on a key, a project, a member or the account. They are read by
 * the holds in the database itself (gateway_place_holds), so a budget made,
 * changed or removed here holds on every instance from its commit on.
 */
export class BudgetStore {
  constructor(private readonly db: Pick<Database, 'query'>) {}

  async create(input: BudgetInput): Promise<BudgetView> {
    const id = `budget_${randomUUID().replace(/-/g, '')}`;
    await this.db.query(
      'INSERT INTO "budgets" ("id", "account_id", "scope", "scope_id", "period", "limit_microusd", "mode") VALUES ($1, $2, $3, $4, $5, $6::bigint, $7)',
      [id, input.accountId, input.scope, input.scopeId, input.period, input.limitMicrousd.toString(), input.mode],
    );
    return (await this.find(id))!;
  }

  async find(id: string): Promise<BudgetView | null> {
    const { rows } = await this.db.query<BudgetRow>(`${SELECT_BUDGETS} AND b."id" = $1`, [id]);
    return rows[0] ? budgetView(rows[0]) : null;
  }

  async listForAccount(accountId: string): Promise<BudgetView[]> {
    const { rows } = await this.db.query<BudgetRow>(`${SELECT_BUDGETS} AND b."account_id" = $1 ORDER BY b."created_at", b."id" LIMIT 1000`, [accountId]);
    return rows.map(budgetView);
  }

  /** Budgets over a caller: on its key, its project, its member and its account. */
  async listOver(accountId: string, keyIds: string[], projectId: string | null, memberId: string | null): Promise<BudgetView[]> {
    const { rows } = await this.db.query<BudgetRow>(
      `${SELECT_BUDGETS} AND b."account_id" = $1 AND ((b."scope" = 'key' AND b."scope_id" = ANY($2::text[])) OR (b."scope" = 'project' AND b."scope_id" = $3) ` +
        `OR (b."scope" = 'member' AND b."scope_id" = $4) OR b."scope" = 'account') ORDER BY b."created_at", b."id"`,
      [accountId, keyIds, projectId, memberId],
    );
    return rows.map(budgetView);
  }

  async update(id: string, change: { limitMicrousd?: bigint; mode?: BudgetMode }): Promise<BudgetView | null> {
    await this.db.query(
      'UPDATE "budgets" SET "limit_microusd" = coalesce($2::bigint, "limit_microusd"), "mode" = coalesce($3, "mode") WHERE "id" = $1 AND "deleted_at" IS NULL',
      [id, change.limitMicrousd?.toString() ?? null, change.mode ?? null],
    );
    return this.find(id);
  }

  /** Removes the budget from the checks; its history stays in the ledger. */
  async remove(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE "budgets" SET "deleted_at" = now() WHERE "id" = $1 AND "deleted_at" IS NULL', [id]);
    return rowCount === 1;
  }
}

function budgetView(row: BudgetRow): BudgetView {
  const limit = BigInt(row.limit_microusd);
  const spent = BigInt(row.spent_microusd ?? '0');
  const held = BigInt(row.held_microusd ?? '0');
  const left = limit - spent - held;
  return {
    id: row.id,
    object: 'budget',
    account_id: row.account_id,
    scope: row.scope,
    scope_id: row.scope_id,
    period: row.period,
    mode: row.mode,
    limit_microusd: Number(limit),
    period_start: new Date(row.period_start).toISOString(),
    spent_microusd: Number(spent),
    held_microusd: Number(held),
    remaining_microusd: Number(left > 0n ? left : 0n),
    created_at: new Date(row.created_at).toISOString(),
  };
}
