import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/db/database';
import { freshPgliteDataDir } from './pglite-template';
import { createTestDatabase } from './postgres-database';
import type { TestDatabase } from './test-gateway';

export interface OpenedTestDatabase {
  db: Database;
  /** The PostgreSQL database's URL (absent for the embedded one, which lives in `dir`). */
  url?: string;
  /** The folder of the embedded database, or a scratch folder beside a PostgreSQL one (for spools). */
  dir: string;
  close(): Promise<void>;
}

/**
 * A fresh database of either kind, for tests below the gateway: migrated,
 * or with `empty`, without any migration applied (to run some of them).
 */
export async function openTestDatabase(kind: TestDatabase, opts: { empty?: boolean } = {}): Promise<OpenedTestDatabase> {
  if (kind === 'pglite') {
    const dir = opts.empty ? mkdtempSync(path.join(os.tmpdir(), 'gateway-empty-')) : await freshPgliteDataDir();
    const opened: OpenedTestDatabase = {
      db: await openDatabase({ dataDir: path.join(dir, 'pglite') }),
      dir,
      async close() {
        await opened.db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return opened;
  }
  const pg = await createTestDatabase(opts);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-pg-scratch-'));
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' });
  return {
    db,
    url: pg.url,
    dir,
    async close() {
      await db.close();
      await pg.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
