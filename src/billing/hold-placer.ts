import type { Database } from '../db/database';
import type { Principal } from '../keys/principal';

/** A hold asked for one call: the caller, the request and the worst-case amount. */
export interface HoldRequest {
  principal: Principal;
  requestId: string;
  amountMicrousd: bigint;
}

/** What the database answered: a hold, a refusal naming what refused it, or nothing (the account is not under spend control). */
export type HoldOutcome =
  | { kind: 'held'; holdId: bigint; softExceeded: string[] }
  | { kind: 'uncontrolled' }
  | { kind: 'refused'; refusal: 'insufficient_balance' | 'budget_exceeded'; budgetId: string | null };

interface Pending {
  request: HoldRequest;
  done: (outcome: HoldOutcome) => void;
  failed: (err: unknown) => void;
}

interface HoldRow {
  item: number;
  hold: string | null;
  refusal: 'insufficient_balance' | 'budget_exceeded' | null;
  budget: string | null;
  soft_exceeded: string[] | null;
}

const MAX_BATCH = 500;
const PLACE_SQL = 'SELECT "item", "hold"::text AS "hold", "refusal", "budget", "soft_exceeded" FROM gateway_place_holds($1::jsonb)';

/**
 * Places holds with group commit, like the usage writer: a hold goes to the
 * database at once when none is being placed, and holds that arrive
 * meanwhile go together in the next statement. Each batch is one call of
 * `gateway_place_holds`, which checks and moves every item under its
 * account's wallet lock, so concurrent calls on any number of instances
 * never pass a hard budget or the wallet's floor between them.
 */
export class HoldPlacer {
  private queue: Pending[] = [];
  private draining = false;

  constructor(private readonly db: Pick<Database, 'query'>) {}

  place(request: HoldRequest): Promise<HoldOutcome> {
    return new Promise<HoldOutcome>((done, failed) => {
      this.queue.push({ request, done, failed });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const outcomes = await this.placeBatch(batch.map((p) => p.request));
          batch.forEach((p, i) => p.done(outcomes[i]!));
        } catch (err) {
          for (const p of batch) p.failed(err);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async placeBatch(requests: HoldRequest[]): Promise<HoldOutcome[]> {
    const items = requests.map((r, i) => ({
      i,
      account_id: r.principal.accountId,
      key_id: r.principal.keyId,
      parent_key_id: r.principal.parentKeyId,
      project_id: r.principal.projectId,
      member_id: r.principal.memberId,
      amount: r.amountMicrousd.toString(),
      request_id: r.requestId,
    }));
    const { rows } = await this.db.query<HoldRow>(PLACE_SQL, [JSON.stringify(items)], { name: 'spend_holds_place' });
    const outcomes: HoldOutcome[] = new Array(requests.length);
    for (const row of rows) outcomes[row.item] = outcomeOf(row);
    for (let i = 0; i < outcomes.length; i++) if (!outcomes[i]) throw new Error(`gateway_place_holds gave no answer for item ${i}`);
    return outcomes;
  }
}

function outcomeOf(row: HoldRow): HoldOutcome {
  if (row.refusal) return { kind: 'refused', refusal: row.refusal, budgetId: row.budget };
  if (row.hold === null) return { kind: 'uncontrolled' };
  return { kind: 'held', holdId: BigInt(row.hold), softExceeded: row.soft_exceeded ?? [] };
}
