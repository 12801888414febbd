import type { Database } from '../db/database';
import type { Logger } from '../observability/logger';
import type { GatewayMetrics } from '../observability/metrics';
import { insertUsageRecords } from './usage-record-insert';
import type { UsageRecordRow } from './usage-record';
import type { UsageSpool } from './usage-spool';

interface Pending {
  row: UsageRecordRow;
  done: () => void;
}

const MAX_BATCH = 500;
const RETRY_DELAYS_MS = [25, 100, 400];

/**
 * Commits usage records with group commit: a record is written at once when
 * the database is idle, and records that arrive while a batch is being
 * written go together in the next one. So one request costs one insert, and
 * a thousand concurrent requests cost a handful, and `write()` resolves only
 * once the record is durable, in the database or in the local spool.
 */
export class UsageWriter {
  private queue: Pending[] = [];
  private draining: Promise<void> | null = null;
  /** Whether records went to the spool since the last replay. */
  private spooled = false;

  constructor(
    private readonly db: Pick<Database, 'query'>,
    private readonly spool: UsageSpool,
    private readonly logger: Logger,
    private readonly metrics: GatewayMetrics,
  ) {}

  write(row: UsageRecordRow): Promise<void> {
    return new Promise<void>((done) => {
      this.queue.push({ row, done });
      if (!this.draining) this.draining = this.drain();
    });
  }

  /** Resolves when every record handed to `write()` so far is durable. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /**
   * Moves records left in the spool by an earlier outage into the database.
   * A record the database refuses on its own is set aside in the spool's
   * rejected file (and logged), so that one bad record can never stop a
   * start-up.
   */
  async replaySpool(): Promise<number> {
    const count = await this.spool.drain(async (rows) => {
      try {
        await this.insert(rows);
      } catch {
        for (const row of rows) await this.insert([row]).catch((err) => this.spool.reject(row, err));
      }
    });
    if (count) this.logger.info('usage records replayed from the spool', { count, file: this.spool.file });
    return count;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.commit(batch.map((p) => p.row));
        for (const p of batch) p.done();
      }
    } finally {
      this.draining = null;
    }
  }

  private async commit(rows: UsageRecordRow[]): Promise<void> {
    const started = process.hrtime.bigint();
    for (let attempt = 0; ; attempt++) {
      try {
        await this.insert(rows);
        this.metrics.usageRecordsWritten.inc({}, rows.length);
        this.metrics.usageFlushDuration.observe({}, Number(process.hrtime.bigint() - started) / 1e9);
        if (this.spooled) await this.replaySpoolSoon();
        return;
      } catch (err) {
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
  private async replaySpoolSoon(): Promise<void> {
    this.spooled = false;
    await this.replaySpool().catch((err) => {
      this.spooled = true;
      this.logger.warn('usage spool replay failed; will retry after the next commit', { err });
    });
  }

  private async spoolOrDie(rows: UsageRecordRow[], cause: unknown): Promise<void> {
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

  private insert(rows: UsageRecordRow[]): Promise<void> {
    return insertUsageRecords(this.db, rows);
  }
}
