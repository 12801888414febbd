import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { UsageRecordRow } from './usage-record';

/**
 * A local append-only file of usage records the database refused, so that a
 * database outage loses no record. Replayed (idempotently, by request id) at
 * the next start-up or flush that succeeds.
 */
export class UsageSpool {
  constructor(readonly file: string) {}

  async append(rows: UsageRecordRow[], file = this.file): Promise<void> {
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

  /** Reads every spooled record; `commit` is called with them and the spool is cleared only if it succeeds. */
  async drain(commit: (rows: UsageRecordRow[]) => Promise<void>): Promise<number> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    const rows = text.split('\n').filter((line) => line.trim()).flatMap((line) => {
      try {
        return [reviveRow(JSON.parse(line))];
      } catch {
        return []; // a torn last line from a crash mid-append holds no complete record
      }
    });
    if (rows.length) await commit(rows);
    await fs.rm(this.file, { force: true });
    return rows.length;
  }
}

function bigintToString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

function reviveRow(raw: UsageRecordRow & { amountMicrousd: string; heldMicrousd: string | null; createdAt: string }): UsageRecordRow {
  return {
    ...raw,
    amountMicrousd: BigInt(raw.amountMicrousd),
    heldMicrousd: raw.heldMicrousd === null || raw.heldMicrousd === undefined ? null : BigInt(raw.heldMicrousd),
    createdAt: new Date(raw.createdAt),
  };
}
