import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client';
import type { Database } from './database';
import { StatementCount } from './statement-count';

/**
 * Small buffers: the embedded database serves one gateway process, and its
 * defaults (sized for a server) cost resident memory for nothing.
 */
const PGLITE_START_PARAMS = ['-c', 'shared_buffers=16MB', '-c', 'work_mem=2MB', '-c', 'wal_buffers=1MB'];

export async function openPglite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  // `startParams` replaces PGlite's defaults rather than extending them.
  const pg = new PGlite(dataDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_START_PARAMS] });
  await pg.waitReady;
  const statements = new StatementCount();
  const prisma = new PrismaClient({ adapter: statements.adapter(new PrismaPGlite(pg)) });
  return {
    prisma,
    kind: 'pglite',
    statements,
    async execScript(sql) {
      statements.add();
      await pg.exec(sql);
    },
    async query<Row>(sql: string, params: unknown[]) {
      statements.add();
      const result = await pg.query<Row>(sql, params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    // One process owns the data folder, so there is nobody to race with.
    withMigrationLock: (fn) => fn(),
    async close() {
      await prisma.$disconnect();
      await pg.close();
    },
  };
}

