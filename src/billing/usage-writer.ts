import type { Database } from '../db/database';
import { timeWindowOfIds } from '../db/time-ordered-id';
import type { Logger } from '../observability/logger';
import type { GatewayMetrics } from '../observability/metrics';
import { insertUsageRecords } from './usage-record-insert';
import type { UsageRecordRow } from './usage-record';
import { UsageShapes } from './usage-shapes';
import type { UsageSpool } from './usage-spool';

interface Pending {
  row: UsageRecordRow;
  done: () => void;
}

const MAX_BATCH = 500;
/** By id, within the ids' time window (`$2`, `$3`: their month's partition only) when they carry one. */
const MARK_CLIENT_GONE_SQL =
  `UPDATE "usage_records" SET "delivery" = 'client_gone' WHERE "id" IN (SELECT jsonb_array_elements_text($1::jsonb)) ` +
  `AND "created_at" >= coalesce($2::timestamptz, '-infinity') AND "created_at" < coalesce($3::timestamptz, 'infinity')`;
const RETRY_DELAYS_MS = [25, 100, 400];
/** A commit running longer than this means the database cannot take writes now (a locked table, a dead link). */
const STUCK_COMMIT_MS = 5_000;
/** While commits fail, the database is tried again at most this often; records in between go straight to the spool. */
const RETRY_FAILING_DATABASE_MS = 5_000;

/** Whether the writer can commit records now, for readiness. */
export interface WriterHealth {
  writable: boolean;
  reason?: string;
}

/**
 * Commits usage records with group commit: when the database is idle, the
 * records of one turn of the event loop go together at its end, and records
 * that arrive while a batch is being written go together in the next one.
 * So a thousand concurrent requests cost a handful of inserts, and `write()`
 * resolves only once the record is durable, in the database or in the local
 * spool.
 */
export class UsageWriter {
  private queue: Pending[] = [];
  private draining: Promise<void> | null = null;
  /** Whether records went to the spool since the last replay. */
  private spooled = false;
  /** The batch being committed now, and since when. */
  private inFlight: Pending[] = [];
  private commitStartedAt: number | null = null;
  /** Set when a batch could not be committed, cleared by the next commit that works. */
  private failingSince: number | null = null;
  private lastFailedAttemptAt = 0;
  private replaying = false;
  private lastFailedReplayAt = 0;
  /** Records to mark `client_gone`: their response was cut off after they were committed. */
  private clientsGone: string[] = [];

  constructor(
    private readonly db: Pick<Database, 'query'>,
    private readonly spool: UsageSpool,
    private readonly logger: Logger,
    private readonly metrics: GatewayMetrics,
    /** The shapes dictionary the records' JSON parts are stored against; the gateway shares one with its readers. */
    private readonly shapes = new UsageShapes(db),
  ) {}

  write(row: UsageRecordRow): Promise<void> {
    return new Promise<void>((done) => {
      this.queue.push({ row, done });
      if (!this.draining) this.draining = this.drain();
    });
  }

  /**
   * Marks a committed record whose response the client did not receive
   * whole. Best effort and batched like the records themselves: one
   * statement for every mark that arrived meanwhile.
   */
  noteClientGone(requestId: string): void {
    this.clientsGone.push(requestId);
    if (!this.draining) this.draining = this.drain();
  }

  /** Resolves when every record handed to `write()` so far is durable. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /**
   * `flush()` with a deadline, for shutdown: records not committed within
   * `ms` (the database is locked or gone) are written to the spool instead,
   * to be replayed (idempotently) by the next start. Resolves `true` when
   * everything was committed in time.
   */
  async flushWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    const outcome = await Promise.race([this.flush().then(() => 'done' as const), deadline]);
    clearTimeout(timer);
    if (outcome === 'done') return true;
    const left = [...this.inFlight, ...this.queue.splice(0)];
    this.logger.error('usage records did not commit before the shutdown deadline; spooling them', { count: left.length, deadline_ms: ms });
    await this.spoolOrDie(left.map((p) => p.row), new Error('shutdown deadline'));
    for (const p of left) p.done();
    return false;
  }

  /**
   * Readiness: whether usage records can be committed now. Asks the
   * database for the lock a write takes on `usage_records` (a locked table
   * or a dead link answers nothing within `timeoutMs`); when it is granted,
   * a writer that was failing is healthy again and replays its spool.
   */
  async probe(timeoutMs = 1_000): Promise<WriterHealth> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
    // The lock an insert takes, without waiting for it: a table locked against writes (a lock, an index build) answers at once.
    // One statement in its own transaction (a DO block), so that the probe holds no connection between statements.
    const attempt = this.db
      .query('DO $$ BEGIN LOCK TABLE "usage_records" IN ROW EXCLUSIVE MODE NOWAIT; END $$', [])
      .then(() => 'ok' as const, () => 'failed' as const);
    const outcome = await Promise.race([attempt, late]);
    clearTimeout(timer);
    if (outcome !== 'ok') return { writable: false, reason: 'the database does not take usage records now; they are kept in the local spool' };
    if (this.failingSince !== null) {
      this.failingSince = null;
      if (this.spooled) void this.replaySpoolSoon();
    }
    return this.health();
  }

  /** Not writable while batches fail, or while one commit has been stuck for seconds. */
  health(now = Date.now()): WriterHealth {
    if (this.failingSince !== null) return { writable: false, reason: 'usage records cannot be committed to the database; they are kept in the local spool' };
    if (this.commitStartedAt !== null && now - this.commitStartedAt > STUCK_COMMIT_MS) {
      return { writable: false, reason: 'a usage record commit has been waiting on the database for more than 5 s' };
    }
    return { writable: true };
  }

  /**
   * Moves records left in the spool by an earlier outage into the database.
   * A record the database refuses on its own is set aside in the spool's
   * rejected file (and logged), so that one bad record can never stop a
   * start-up; records refused because the database itself cannot take them
   * yet stay in the spool for the next replay (never set aside: the
   * sweeper replays during outages too).
   */
  async replaySpool(): Promise<number> {
    let kept = 0;
    const count = await this.spool.drain(async (rows) => {
      // In batches of the writer's own size: after a long outage the spool may hold far more than one statement should.
      for (let start = 0; start < rows.length; start += MAX_BATCH) {
        const chunk = rows.slice(start, start + MAX_BATCH);
        try {
          await this.insert(chunk);
        } catch (batchErr) {
          // Not the records but the database (still out, locked): this chunk and the rest stay in the spool for the next replay.
          if (!isRecordError(batchErr)) {
            const stay = rows.slice(start);
            kept = stay.length;
            this.logger.warn('usage spool replay failed; the records stay in the spool', { count: stay.length, err: batchErr });
            return stay;
          }
          const stay: UsageRecordRow[] = [];
          for (const row of chunk) {
            await this.insert([row]).catch((err) => (isRecordError(err) ? this.spool.reject(row, err) : void stay.push(row)));
          }
          if (stay.length) {
            kept = stay.length + rows.length - start - chunk.length;
            return [...stay, ...rows.slice(start + chunk.length)];
          }
        }
      }
      return [];
    });
    if (kept) this.spooled = true;
    if (count) this.logger.info('usage records replayed from the spool', { count, file: this.spool.file });
    return count;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length || this.clientsGone.length) {
        // Marks go between batches (never starved by a busy queue), at most a batch's worth at a time.
        if (this.clientsGone.length) await this.markClientsGone(this.clientsGone.splice(0, MAX_BATCH));
        if (!this.queue.length) continue;
        // One turn of the event loop first, so that the records of every request that finished in this turn
        // go in this batch. Embedded PGlite runs a statement synchronously on this thread: without the
        // turn, the queue is refilled only by promise callbacks and each request would pay an insert of its own.
        await new Promise((resolve) => setImmediate(resolve));
        const batch = this.queue.splice(0, MAX_BATCH);
        this.inFlight = batch;
        this.commitStartedAt = Date.now();
        await this.commit(batch.map((p) => p.row));
        for (const p of batch) p.done();
      }
    } finally {
      this.inFlight = [];
      this.commitStartedAt = null;
      this.draining = null;
    }
  }

  private async commit(rows: UsageRecordRow[]): Promise<void> {
    if (this.failingSince !== null && Date.now() - this.lastFailedAttemptAt < RETRY_FAILING_DATABASE_MS) {
      // The database failed moments ago: waiting on it again would hold every request for its time-out.
      await this.spoolOrDie(rows, new Error('the database failed moments ago'));
      return;
    }
    const started = process.hrtime.bigint();
    for (let attempt = 0; ; attempt++) {
      const attemptStarted = Date.now();
      try {
        await this.insert(rows);
        this.failingSince = null;
        this.metrics.usageRecordsWritten.inc({}, rows.length);
        this.metrics.usageFlushDuration.observe({}, Number(process.hrtime.bigint() - started) / 1e9);
        // In the background: the records of this batch are durable now, and their requests need not wait for a replay.
        if (this.spooled) void this.replaySpoolSoon();
        return;
      } catch (err) {
        if (!isRecordError(err) && (attempt > 0 || Date.now() - attemptStarted > 500)) {
          this.lastFailedAttemptAt = Date.now();
          // Locked, timed out, unreachable: every row would wait as long again, one by one. Keep them all.
          // (A failure that came at once gets one quick retry first: a dropped connection reconnects.)
          await this.spoolOrDie(rows, err);
          return;
        }
        if (attempt >= RETRY_DELAYS_MS.length) {
          await this.commitOneByOne(rows, err);
          return;
        }
        await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[attempt]));
      }
    }
  }

  /**
   * A batch the database keeps refusing: one bad row must not take the
   * others with it, so each row is tried alone and only those that still
   * fail (all of them, when the database is down) go to the spool.
   */
  private async commitOneByOne(rows: UsageRecordRow[], batchError: unknown): Promise<void> {
    const failed: UsageRecordRow[] = [];
    for (const row of rows) {
      try {
        await this.insert([row]);
        this.metrics.usageRecordsWritten.inc();
      } catch {
        failed.push(row);
      }
    }
    if (failed.length) await this.spoolOrDie(failed, batchError);
  }

  /** After an outage, the first commit that works brings the spooled records back. */
  /** One replay at a time, and after a failed one, none for a few seconds. */
  private async replaySpoolSoon(): Promise<void> {
    if (this.replaying || Date.now() - this.lastFailedReplayAt < RETRY_FAILING_DATABASE_MS) return;
    this.replaying = true;
    this.spooled = false;
    try {
      await this.replaySpool();
    } catch (err) {
      this.spooled = true;
      this.logger.warn('usage spool replay failed; will retry after a later commit', { err });
    } finally {
      // A replay that kept records (the database failed again) waits before the next one.
      if (this.spooled) this.lastFailedReplayAt = Date.now();
      this.replaying = false;
    }
  }

  private async spoolOrDie(rows: UsageRecordRow[], cause: unknown): Promise<void> {
    this.failingSince ??= Date.now();
    this.logger.error('usage records could not be committed; writing them to the spool', { count: rows.length, err: cause });
    try {
      await this.spool.append(rows);
      this.spooled = true;
      this.metrics.usageRecordsSpooled.inc({}, rows.length);
    } catch (spoolErr) {
      // Last resort: the log line itself carries the records, so an operator can still restore them.
      this.logger.error('usage spool failed; the records are in this log line', { err: spoolErr, records: rows });
    }
  }

  private async markClientsGone(ids: string[]): Promise<void> {
    if (this.failingSince !== null) {
      // The database is failing: waiting on it for an annotation would hold the records behind it.
      this.logger.warn('usage records whose client left were not marked: the database is failing', { count: ids.length, request_ids: ids.slice(0, 20) });
      return;
    }
    try {
      const window = timeWindowOfIds(ids);
      await this.db.query(MARK_CLIENT_GONE_SQL, [JSON.stringify(ids), window?.gte ?? null, window?.lt ?? null], { name: 'usage_records_client_gone' });
    } catch (err) {
      // An annotation for disputes, not the charge: a failure is logged, not spooled.
      this.logger.warn('could not mark usage records whose client left before the end of the response', { count: ids.length, request_ids: ids.slice(0, 20), err });
    }
  }

  private insert(rows: UsageRecordRow[]): Promise<void> {
    return insertUsageRecords(this.db, this.shapes, rows);
  }
}

/**
 * A failure of the records themselves (PostgreSQL's data exceptions, class
 * 22, and integrity violations, class 23), which retrying or splitting the
 * batch can get past; anything else is the database's state.
 */
function isRecordError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}
