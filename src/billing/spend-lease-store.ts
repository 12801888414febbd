import type { Database } from '../db/database';
import type { Principal } from '../keys/principal';

/** A lease to take for one caller: how much is wanted, in whole units of a call's worst case. */
export interface LeaseRequest {
  principal: Principal;
  wantMicrousd: bigint;
  /** One call's worst case: the grant is a whole number of these. */
  unitMicrousd: bigint;
  /** Fewer units than this is no lease: the caller then places exact holds per call. */
  minUnits: number;
  /** The grant is at most 1/share of the room left, so that other instances can lease too. */
  share: number;
  holder: string;
  ttlMs: number;
}

export type LeaseAnswer =
  | { kind: 'granted'; id: bigint; grantedMicrousd: bigint; softExceeded: string[] }
  /** Too little room left for a lease worth having (near a limit): hold per call. */
  | { kind: 'too_small' }
  /** The account has no wallet. */
  | { kind: 'uncontrolled' };

/** The open leases of an account, as the admin API and the tests see them. */
export interface OpenLeases {
  count: number;
  granted_microusd: number;
  charged_microusd: number;
}

const TAKE_SQL =
  'SELECT "lease"::text AS "lease", "granted"::text AS "granted", "controlled", "soft_exceeded" ' +
  'FROM gateway_take_lease($1, $2, $3, $4, $5, $6::bigint, $7::bigint, $8::int, $9::int, $10, $11::int)';

/**
 * The leases' rows: taken, renewed and ended by one statement each
 * (gateway_take_lease, gateway_end_leases, gateway_expire_leases). The
 * in-memory side is spend-leases.ts.
 */
export class SpendLeaseStore {
  constructor(private readonly db: Pick<Database, 'query'>) {}

  async take(request: LeaseRequest): Promise<LeaseAnswer> {
    const p = request.principal;
    const { rows } = await this.db.query<{ lease: string | null; granted: string; controlled: boolean; soft_exceeded: string[] | null }>(TAKE_SQL, [
      p.accountId, p.keyId, p.parentKeyId, p.projectId, p.memberId,
      request.wantMicrousd.toString(), request.unitMicrousd.toString(), request.minUnits, request.share, request.holder, request.ttlMs,
    ], { name: 'spend_leases_take' });
    const row = rows[0]!;
    if (!row.controlled) return { kind: 'uncontrolled' };
    if (row.lease === null) return { kind: 'too_small' };
    return { kind: 'granted', id: BigInt(row.lease), grantedMicrousd: BigInt(row.granted), softExceeded: row.soft_exceeded ?? [] };
  }

  /** Gives back what the leases did not spend and ends them; returns how many it ended (one already ended is left alone). */
  async end(ids: bigint[], note: string): Promise<number> {
    const { rows } = await this.db.query<{ ended: number }>('SELECT gateway_end_leases($1::bigint[], $2) AS "ended"', [ids.map(String), note]);
    return Number(rows[0]?.ended ?? 0);
  }

  /** Moves the expiry of the leases still open; returns the ids that were (the others were ended by someone else). */
  async renew(ids: bigint[], ttlMs: number): Promise<bigint[]> {
    const { rows } = await this.db.query<{ id: string }>(
      'UPDATE "spend_leases" s SET "expires_at" = now() + make_interval(secs => $2::int / 1000.0) ' +
        'FROM (SELECT "id" FROM "spend_leases" WHERE "id" = ANY($1::bigint[]) AND "ended_at" IS NULL ORDER BY "id" FOR UPDATE) o ' +
        'WHERE s."id" = o."id" RETURNING s."id"::text AS "id"',
      [ids.map(String), ttlMs],
    );
    return rows.map((r) => BigInt(r.id));
  }

  /** Ends up to `max` leases whose expiry has passed (their holder died), of every account; returns how many. */
  async expire(max = 500): Promise<number> {
    const { rows } = await this.db.query<{ ended: number }>('SELECT gateway_expire_leases(NULL, $1::int) AS "ended"', [max]);
    return Number(rows[0]?.ended ?? 0);
  }

  /**
   * Deletes up to `max` rows of leases that ended more than `afterMs` ago;
   * returns how many. The ledger keeps every lease's entries, and nothing
   * reads an ended lease's row.
   */
  async forgetEnded(afterMs: number, max = 500): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      'WITH "gone" AS (DELETE FROM "spend_leases" WHERE "id" IN (SELECT "id" FROM "spend_leases" WHERE "ended_at" < now() - make_interval(secs => $1::int / 1000.0) LIMIT $2) RETURNING 1) ' +
        'SELECT count(*)::int AS "n" FROM "gone"',
      [afterMs, max],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The account's open leases: how many, what they were granted and what their calls were charged so far. */
  async openFor(accountId: string): Promise<OpenLeases> {
    const { rows } = await this.db.query<{ count: number; granted: string | null; charged: string | null }>(
      'SELECT count(*)::int AS "count", sum("granted_microusd")::text AS "granted", sum("charged_microusd")::text AS "charged" FROM "spend_leases" WHERE "account_id" = $1 AND "ended_at" IS NULL',
      [accountId],
    );
    const row = rows[0]!;
    return { count: row.count, granted_microusd: Number(row.granted ?? 0), charged_microusd: Number(row.charged ?? 0) };
  }
}
