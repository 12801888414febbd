import type { Database } from '../db/database';

export interface WalletView {
  object: 'wallet';
  account_id: string;
  /** Top-ups less charges and open holds: what further holds are taken from. */
  balance_microusd: number;
  /** Open holds, already taken from the balance. */
  held_microusd: number;
  /** How far below zero a hold may take the balance; 0 is prepaid, null never refuses. */
  credit_limit_microusd: number | null;
  created_at: string;
  updated_at: string;
}

interface WalletRow {
  account_id: string;
  balance_microusd: string;
  held_microusd: string;
  credit_limit_microusd: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A top-up, an adjustment: money the operator moves, one ledger entry each. */
export type OperatorMovement = 'top_up' | 'adjustment';

const WALLET_COLUMNS = '"account_id", "balance_microusd"::text, "held_microusd"::text, "credit_limit_microusd"::text, "created_at", "updated_at"';

/**
 * The accounts' wallets. A wallet is made by the first top-up, adjustment,
 * credit limit or budget of its account, and from then on the account is
 * under spend control: its paid calls hold and settle against it. Balances
 * move only through ledger entries (gateway_wallet_movement and the holds).
 */
export class WalletStore {
  constructor(private readonly db: Pick<Database, 'query'>) {}

  async find(accountId: string): Promise<WalletView | null> {
    const { rows } = await this.db.query<WalletRow>(`SELECT ${WALLET_COLUMNS} FROM "wallets" WHERE "account_id" = $1`, [accountId]);
    return rows[0] ? walletView(rows[0]) : null;
  }

  /** Makes the account's wallet if it has none; true when it was made now. */
  async ensure(accountId: string): Promise<boolean> {
    const { rowCount } = await this.db.query('INSERT INTO "wallets" ("account_id", "credit_limit_microusd") VALUES ($1, NULL) ON CONFLICT DO NOTHING', [accountId]);
    return rowCount === 1;
  }

  /** One ledger entry moving `amount` (negative for an adjustment down); returns the entry id. */
  async move(accountId: string, kind: OperatorMovement, amountMicrousd: bigint, note: string | null): Promise<string> {
    const { rows } = await this.db.query<{ entry: string }>(
      'SELECT gateway_wallet_movement($1, $2, $3::bigint, 0, NULL, NULL, $4)::text AS "entry"',
      [accountId, kind, amountMicrousd.toString(), note],
    );
    return rows[0]!.entry;
  }

  /** Sets how far below zero holds may take the balance (null: never refused); makes the wallet if needed. */
  async setCreditLimit(accountId: string, limitMicrousd: bigint | null): Promise<void> {
    await this.db.query(
      'INSERT INTO "wallets" ("account_id", "credit_limit_microusd") VALUES ($1, $2::bigint) ' +
        'ON CONFLICT ("account_id") DO UPDATE SET "credit_limit_microusd" = EXCLUDED."credit_limit_microusd", "updated_at" = now()',
      [accountId, limitMicrousd === null ? null : limitMicrousd.toString()],
    );
  }
}

function walletView(row: WalletRow): WalletView {
  return {
    object: 'wallet',
    account_id: row.account_id,
    balance_microusd: Number(row.balance_microusd),
    held_microusd: Number(row.held_microusd),
    credit_limit_microusd: row.credit_limit_microusd === null ? null : Number(row.credit_limit_microusd),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
