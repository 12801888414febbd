import { z } from 'zod';
import type { Database } from '../db/database';
import { TimePartitions } from '../db/time-partitions';
import type { Logger } from '../observability/logger';
import type { ResponsesRequest } from './responses-request-schema';

/** A response to keep: who owns it, what the client sent and what it received. */
export interface NewStoredResponse {
  id: string;
  createdAt: Date;
  keyId: string;
  accountId: string;
  previousResponseId: string | null;
  /** The provider channel that served it. */
  provider: string;
  /** The upstream's own id, only when the upstream stored the response too. */
  upstreamResponseId: string | null;
  input: ResponsesRequest['input'];
  response: Record<string, unknown>;
}

/** A kept response as read back (its owner already checked by the query). */
export interface StoredResponse {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  previousResponseId: string | null;
  provider: string;
  upstreamResponseId: string | null;
  input: ResponsesRequest['input'];
  response: Record<string, unknown>;
}

interface StoredResponseRow {
  id: string;
  created_at: Date;
  expires_at: Date;
  previous_response_id: string | null;
  provider: string;
  upstream_response_id: string | null;
  input: unknown;
  response: unknown;
}

/** The JSON columns as the gateway wrote them (the input was validated by the request schema then). */
const storedInputSchema = z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]);
const storedResponseSchema = z.record(z.string(), z.unknown());

const COLUMNS = '"id", "created_at", "expires_at", "previous_response_id", "provider", "upstream_response_id", "input", "response"';

/**
 * The `stored_responses` table, and the writes still on their way to it.
 * A response is written after its answer has gone out (`save` does not
 * wait): the write is kept here until it commits, so that a read of the
 * same id on this instance waits for it instead of missing it, and
 * shutdown waits for all of them (`flushWithin`) before the database
 * closes. Every read is scoped to the owning key and skips expired rows.
 */
export class ResponseStore {
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Pick<Database, 'query'>,
    private readonly logger: Logger,
    private readonly retentionMs: number,
  ) {}

  /** Begins writing the response; a failure is logged (the client has its answer; the response is then not kept). */
  save(row: NewStoredResponse): void {
    const expiresAt = new Date(row.createdAt.getTime() + this.retentionMs);
    // Serialized now: the objects may still be changed by the caller once this returns.
    const params = [row.id, row.createdAt, expiresAt, row.keyId, row.accountId, row.previousResponseId, row.provider, row.upstreamResponseId, JSON.stringify(row.input), JSON.stringify(row.response)];
    // One turn of the event loop first: the answer goes out before the write takes the thread (PGlite runs statements on it).
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.db.query(
        `INSERT INTO "stored_responses" ("id", "created_at", "expires_at", "key_id", "account_id", "previous_response_id", "provider", "upstream_response_id", "input", "response")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb)`,
        params,
      ))
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn('a response could not be stored; GET /v1/responses/{id} will not find it', { response_id: row.id, err }),
      )
      .finally(() => this.pending.delete(row.id));
    this.pending.set(row.id, write);
  }

  /** The key's response, or null when there is none (unknown, another key's, expired or deleted). */
  async find(keyId: string, id: string, now = new Date()): Promise<StoredResponse | null> {
    await this.pending.get(id);
    const { rows } = await this.db.query<StoredResponseRow>(
      `SELECT ${COLUMNS} FROM "stored_responses" WHERE "id" = $1 AND "key_id" = $2 AND "expires_at" > $3`,
      [id, keyId, now],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Removes the key's response; false when it had none of that id. */
  async delete(keyId: string, id: string, now = new Date()): Promise<boolean> {
    await this.pending.get(id);
    const { rowCount } = await this.db.query('DELETE FROM "stored_responses" WHERE "id" = $1 AND "key_id" = $2 AND "expires_at" > $3', [id, keyId, now]);
    return rowCount > 0;
  }

  /**
   * The key's response `id` and those it continues, following
   * `previous_response_id`, oldest first, at most `maxLength` of them: one
   * statement. The chain stops early where a link is gone (expired,
   * deleted); the caller sees that as an oldest one that still names a
   * previous response.
   */
  async chain(keyId: string, id: string, maxLength: number, now = new Date()): Promise<StoredResponse[]> {
    await this.pending.get(id);
    const { rows } = await this.db.query<StoredResponseRow>(
      `WITH RECURSIVE "chain" AS (
         SELECT ${COLUMNS}, 1 AS "depth" FROM "stored_responses" WHERE "id" = $1 AND "key_id" = $2 AND "expires_at" > $3
         UNION ALL
         SELECT r."id", r."created_at", r."expires_at", r."previous_response_id", r."provider", r."upstream_response_id", r."input", r."response", c."depth" + 1
         FROM "stored_responses" r JOIN "chain" c ON r."id" = c."previous_response_id"
         WHERE r."key_id" = $2 AND r."expires_at" > $3 AND c."depth" < $4
       )
       SELECT ${COLUMNS} FROM "chain" ORDER BY "depth" DESC`,
      [id, keyId, now, maxLength],
    );
    return rows.map(fromRow);
  }

  /**
   * Drops, whole, the month partitions whose every response has expired
   * (the month ended a retention ago; the database checks each row's
   * expiry before it drops); the months after them are left to
   * `deleteExpired`. Returns the partitions dropped.
   */
  async dropExpiredPartitions(now = new Date()): Promise<string[]> {
    const outcomes = await new TimePartitions(this.db).dropBefore('stored_responses', new Date(now.getTime() - this.retentionMs));
    return outcomes.filter((o) => o.outcome === 'dropped').map((o) => o.partition);
  }

  /** Removes up to `limit` expired responses (one statement); how many it removed. */
  async deleteExpired(limit = 1000, now = new Date()): Promise<number> {
    const { rowCount } = await this.db.query(
      `DELETE FROM "stored_responses" WHERE ("id", "created_at") IN
         (SELECT "id", "created_at" FROM "stored_responses" WHERE "expires_at" <= $1 LIMIT $2)`,
      [now, limit],
    );
    return rowCount;
  }

  /** Waits for the writes under way, at most `ms`; false when some had not finished by then. */
  async flushWithin(ms: number): Promise<boolean> {
    if (this.pending.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    try {
      return await Promise.race([Promise.all(this.pending.values()).then(() => true as const), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function fromRow(row: StoredResponseRow): StoredResponse {
  return {
    id: row.id,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    previousResponseId: row.previous_response_id,
    provider: row.provider,
    upstreamResponseId: row.upstream_response_id,
    input: storedInputSchema.parse(row.input) as ResponsesRequest['input'],
    response: storedResponseSchema.parse(row.response),
  };
}
