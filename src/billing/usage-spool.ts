import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { UsageRecordRow } from './usage-record';

/**
 * A local append-only file of usage records the database refused, so that a
 * database outage loses no record. Replayed (idempotently, by request id) at
 * the next start-up or flush that succeeds, and by the video hold sweeper.
 *
 * Appends and drains of the spool file take turns: a drain reads the file,
 * commits and then removes or rewrites it, so an append in between would
 * otherwise be lost with it.
 */
export class UsageSpool {
  private turn: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(readonly file: string) {}

  /** Records in the spool as this process last knew it (appended since, or left after the last drain). */
  get depth(): number {
    return this.waiting;
  }

  append(rows: UsageRecordRow[], file = this.file): Promise<void> {
    // The rejected file is written from inside a drain: it must not wait for the drain's turn.
    if (file !== this.file) return this.appendTo(rows, file);
    return this.inTurn(async () => {
      await this.appendTo(rows, file);
      this.waiting += rows.length;
    });
  }

  private async appendTo(rows: UsageRecordRow[], file: string): Promise<void> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const handle = await fs.open(file, 'a');
    try {
      await handle.appendFile(rows.map((r) => JSON.stringify(r, bigintToString) + '\n').join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Where records the database refuses on their own are kept for an operator, with the reason. */
  get rejectedFile(): string {
    return this.file.replace(/(\.jsonl)?$/, '.rejected.jsonl');
  }

  async reject(row: UsageRecordRow, reason: unknown): Promise<void> {
    await this.append([{ ...row, errorCode: `spool_rejected: ${(reason as Error)?.message ?? String(reason)}`.slice(0, 500) }], this.rejectedFile);
  }

  /**
   * Reads every spooled record and calls `commit` with them; the records it
   * hands back (those the database could not take yet) stay in the spool,
   * the others leave it. Nothing leaves it if `commit` throws. Returns how
   * many left.
   */
  drain(commit: (rows: UsageRecordRow[]) => Promise<UsageRecordRow[] | void>): Promise<number> {
    return this.inTurn(() => this.drainNow(commit));
  }

  private async drainNow(commit: (rows: UsageRecordRow[]) => Promise<UsageRecordRow[] | void>): Promise<number> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.waiting = 0;
        return 0;
      }
      throw err;
    }
    const rows = text.split('\n').filter((line) => line.trim()).flatMap((line) => {
      try {
        return [reviveRow(JSON.parse(line))];
      } catch {
        return []; // a torn last line from a crash mid-append holds no complete record
      }
    });
    this.waiting = rows.length;
    const kept = rows.length ? ((await commit(rows)) ?? []) : [];
    this.waiting = kept.length;
    if (kept.length) {
      // Rewritten whole, then renamed over the spool: a crash leaves either file, never half of one.
      const next = `${this.file}.next`;
      await fs.rm(next, { force: true });
      await this.appendTo(kept, next);
      await fs.rename(next, this.file);
    } else {
      await fs.rm(this.file, { force: true });
    }
    return rows.length - kept.length;
  }

  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.turn.then(fn, fn);
    this.turn = run.catch(() => undefined);
    return run;
  }
}

function bigintToString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

function reviveRow(raw: UsageRecordRow & { amountMicrousd: string; heldMicrousd: string | null; holdId?: string | null; createdAt: string }): UsageRecordRow {
  return {
    ...raw,
    amountMicrousd: BigInt(raw.amountMicrousd),
    heldMicrousd: raw.heldMicrousd === null || raw.heldMicrousd === undefined ? null : BigInt(raw.heldMicrousd),
    // Spools written before spend control have no hold.
    holdId: raw.holdId === null || raw.holdId === undefined ? null : BigInt(raw.holdId),
    parentKeyId: raw.parentKeyId ?? null,
    createdAt: new Date(raw.createdAt),
  };
}
