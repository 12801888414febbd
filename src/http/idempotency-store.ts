import type { Database } from '../db/database';

/** How long a first answer is kept for retries. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A claim whose request never finished (its instance died) is taken over after this. */
const ABANDONED_CLAIM_MS = 15 * 60 * 1000;

export interface IdempotencyClaim {
  keyId: string;
  idempotencyKey: string;
  endpoint: string;
  requestHash: string;
  requestId: string;
}

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** What a claim found: the key is ours now, or an earlier request holds it (running, or done with an answer). */
export type ClaimResult =
  | { kind: 'claimed' }
  | { kind: 'in_progress'; requestHash: string }
  | { kind: 'completed'; requestHash: string; answer: StoredAnswer; requestId: string };

/**
 * Idempotency keys in the database, shared by every instance: the primary
 * key (API key, Idempotency-Key) lets exactly one request claim a key, even
 * when two instances receive the same retry at once.
 */
export class IdempotencyStore {
  constructor(private readonly db: Pick<Database, 'query'>) {}

  async claim(claim: IdempotencyClaim, now = new Date()): Promise<ClaimResult> {
    // An expired answer, or a claim whose request died with its instance, frees the key.
    await this.db.query(
      `DELETE FROM "idempotency_keys" WHERE "key_id" = $1 AND "idempotency_key" = $2
         AND ("expires_at" < $3 OR ("state" = 'in_progress' AND "created_at" < $4))`,
      [claim.keyId, claim.idempotencyKey, now, new Date(now.getTime() - ABANDONED_CLAIM_MS)],
    );
    const inserted = await this.db.query(
      `INSERT INTO "idempotency_keys" ("key_id", "idempotency_key", "endpoint", "request_hash", "request_id", "state", "created_at", "expires_at")
       VALUES ($1, $2, $3, $4, $5, 'in_progress', $6, $7) ON CONFLICT DO NOTHING`,
      [claim.keyId, claim.idempotencyKey, claim.endpoint, claim.requestHash, claim.requestId, now, new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS)],
    );
    if (inserted.rowCount === 1) return { kind: 'claimed' };
    const { rows } = await this.db.query<{ state: string; request_hash: string; request_id: string; response_status: number | null; response_content_type: string | null; response_body: string | null }>(
      'SELECT "state", "request_hash", "request_id", "response_status", "response_content_type", "response_body" FROM "idempotency_keys" WHERE "key_id" = $1 AND "idempotency_key" = $2',
      [claim.keyId, claim.idempotencyKey],
    );
    const row = rows[0];
    // Freed between the insert and the read (it expired): this request may run; a retry would find it again.
    if (!row) return this.claim(claim, now);
    if (row.state !== 'completed' || row.response_status === null) return { kind: 'in_progress', requestHash: row.request_hash };
    return {
      kind: 'completed', requestHash: row.request_hash, requestId: row.request_id,
      answer: { status: Number(row.response_status), contentType: row.response_content_type, body: row.response_body ?? '' },
    };
  }

  async complete(claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
    await this.db.query(
      `UPDATE "idempotency_keys" SET "state" = 'completed', "response_status" = $4, "response_content_type" = $5, "response_body" = $6
       WHERE "key_id" = $1 AND "idempotency_key" = $2 AND "request_id" = $3`,
      [claim.keyId, claim.idempotencyKey, claim.requestId, answer.status, answer.contentType, answer.body],
    );
  }

  /** Removes up to `limit` answers past their 24 hours; returns how many. */
  async deleteExpired(limit = 1000, now = new Date()): Promise<number> {
    const deleted = await this.db.query(
      `DELETE FROM "idempotency_keys" WHERE ("key_id", "idempotency_key") IN
         (SELECT "key_id", "idempotency_key" FROM "idempotency_keys" WHERE "expires_at" < $1 LIMIT $2)`,
      [now, limit],
    );
    return deleted.rowCount;
  }

  /** Frees a key whose request failed in a way a retry may fix (a 5xx, a dropped connection). */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.db.query('DELETE FROM "idempotency_keys" WHERE "key_id" = $1 AND "idempotency_key" = $2 AND "request_id" = $3', [
      claim.keyId, claim.idempotencyKey, claim.requestId,
    ]);
  }
}
