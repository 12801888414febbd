import type { Database } from '../db/database';
import { pageOf, type Cursor, type Page } from '../db/page';

export type LedgerKind = 'top_up' | 'hold' | 'settle' | 'release' | 'charge' | 'refund' | 'adjustment' | 'lease' | 'lease_return';

export interface LedgerEntryView {
  id: string;
  object: 'ledger_entry';
  account_id: string;
  kind: LedgerKind;
  /** What the entry did to the wallet balance (a hold is negative). */
  amount_microusd: number;
  /** What it did to the amount charged for calls (a settle's cost; a refund negative). */
  charged_microusd: number;
  hold_id: string | null;
  request_id: string | null;
  key_id: string | null;
  parent_key_id: string | null;
  project_id: string | null;
  member_id: string | null;
  note: string | null;
  /** For a refund the gateway made itself: the request it was made for (a decision whose generated questions were unusable). */
  related_request_id: string | null;
  created_at: string;
}

/** A ledger row as the driver reads it: money as text (64-bit), the time as stored. */
type LedgerRow = Omit<LedgerEntryView, 'object' | 'amount_microusd' | 'charged_microusd' | 'created_at'> & {
  amount_microusd: string;
  charged_microusd: string;
  created_at: Date | string;
};

/** The ledger's cursor: an entry id (`next_before`), the next page holding the older entries. */
export const ledgerCursor: Cursor<string> = {
  param: 'before',
  refusal: 'must be a ledger entry id (a positive integer) from next_before.',
  encode: (id) => id,
  read: (text) => (/^[1-9][0-9]{0,17}$/.test(text) ? text : undefined),
};

/**
 * The selected columns, ids and money as text (64-bit). The text id keeps its
 * column's name, so every ORDER BY names the table's column
 * (`"ledger_entries"."id"`): a bare "id" would sort the text and put 9 above 15.
 */
const COLUMNS =
  '"id"::text, "account_id", "kind", "amount_microusd"::text, "charged_microusd"::text, "hold_id"::text, "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note", "related_request_id", "created_at"';

export type RefundOutcome =
  | { kind: 'refunded'; entryId: string }
  | { kind: 'nothing_to_refund' }
  | { kind: 'too_large'; refundableMicrousd: bigint };

/** Reading the append-only ledger, and releasing holds whose request never ended. */
export class Ledger {
  constructor(private readonly db: Pick<Database, 'query'>) {}

  /** An account's entries, newest first, `limit` at a time, older than entry `before` (read with `ledgerCursor`) when given. */
  async page(accountId: string, limit: number, before: string | null): Promise<Page<LedgerEntryView>> {
    const { rows } = await this.db.query<LedgerRow>(
      `SELECT ${COLUMNS} FROM "ledger_entries" WHERE "account_id" = $1 AND ($2::bigint IS NULL OR "id" < $2::bigint) ORDER BY "ledger_entries"."id" DESC LIMIT $3`,
      [accountId, before, limit + 1],
    );
    return pageOf(rows, limit, entryView, (row) => ledgerCursor.encode(row.id));
  }

  /** The entries of one request (its hold and what ended it, or its charge inside a lease). */
  async forRequest(requestId: string): Promise<LedgerEntryView[]> {
    const { rows } = await this.db.query<LedgerRow>(`SELECT ${COLUMNS} FROM "ledger_entries" WHERE "request_id" = $1 ORDER BY "ledger_entries"."id"`, [requestId]);
    return rows.map(entryView);
  }

  /**
   * Refunds `amountMicrousd` (null: all that is left) of a settled charge to
   * the wallet and key it came from: one `refund` entry, the budgets given
   * back what they counted, and the usage record lowered by a `refund` line
   * item, in one transaction under the account's wallet lock (two refunds at
   * once never give back more than was charged).
   */
  async refund(requestId: string, amountMicrousd: bigint | null, note: string | null, relatedRequestId: string | null = null): Promise<RefundOutcome> {
    try {
      const { rows } = await this.db.query<{ entry: string }>('SELECT gateway_refund($1, $2::bigint, $3, $4)::text AS "entry"', [requestId, amountMicrousd?.toString() ?? null, note, relatedRequestId]);
      return { kind: 'refunded', entryId: rows[0]!.entry };
    } catch (err) {
      const message = (err as { message?: unknown }).message;
      if (message === 'nothing_to_refund') return { kind: 'nothing_to_refund' };
      const tooLarge = typeof message === 'string' ? /^refund_too_large:(\d+)$/.exec(message) : null;
      if (tooLarge) return { kind: 'too_large', refundableMicrousd: BigInt(tooLarge[1]!) };
      throw err;
    }
  }

  /**
   * Refunds a whole charge of an account without a wallet: its usage record
   * alone is lowered to zero by a `refund` line item (there is no ledger to
   * write). Returns what was given back (0: nothing was charged, or it was
   * refunded already).
   */
  async refundRecord(requestId: string): Promise<bigint> {
    const { rows } = await this.db.query<{ amount: string }>('SELECT gateway_refund_record($1)::text AS "amount"', [requestId]);
    return BigInt(rows[0]!.amount);
  }

  /**
   * Releases the holds placed in [from, to) that are still open and whose
   * request has no usage record (its instance stopped before writing it; a
   * task's held record keeps its hold), at most `max`. A record replayed
   * later from a spool books its charge as a late `charge` entry. Returns
   * how many were released.
   */
  async releaseExpiredHolds(from: Date, to: Date, max = 500): Promise<number> {
    const { rows } = await this.db.query<{ released: number }>(
      `SELECT gateway_end_holds(coalesce(jsonb_agg(jsonb_build_object('hold_id', h."id", 'request_id', h."request_id", 'charged', NULL, 'note', 'expired')), '[]'::jsonb)) AS "released" ` +
        `FROM (SELECT h."id", h."request_id" FROM "ledger_entries" h WHERE h."kind" = 'hold' AND h."created_at" >= $1 AND h."created_at" < $2 ` +
        `AND NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = h."id" AND e."kind" IN ('settle', 'release')) ` +
        `AND NOT EXISTS (SELECT 1 FROM "usage_records" r WHERE r."hold_id" = h."id") ORDER BY h."id" LIMIT $3) h`,
      [from, to, max],
    );
    return Number(rows[0]?.released ?? 0);
  }
}

function entryView(row: LedgerRow): LedgerEntryView {
  return {
    ...row,
    object: 'ledger_entry',
    amount_microusd: Number(row.amount_microusd),
    charged_microusd: Number(row.charged_microusd),
    created_at: new Date(row.created_at).toISOString(),
  };
}
