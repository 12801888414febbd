import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client';
import type { Database, QueryOptions } from './database';
import { PglitePreparedStatements, rowCount } from './pglite-prepared-statements';
import { StatementCount } from './statement-count';

/**
 * Small buffers: the embedded database serves one gateway process, and its
 * defaults (sized for a server) cost resident memory for nothing.
 */
const PGLITE_START_PARAMS = ['-c', 'shared_buffers=16MB', '-c', 'work_mem=2MB', '-c', 'wal_buffers=1MB'];

export async function openPglite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await createInChildProcess(dataDir);
  // `startParams` replaces PGlite's defaults rather than extending them.
  const pg = new PGlite(dataDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_START_PARAMS] });
  await pg.waitReady;
  const statements = new StatementCount();
  const prepared = new PglitePreparedStatements(pg);
  const prisma = new PrismaClient({ adapter: statements.adapter(new PrismaPGlite(pg)) });
  return {
    prisma,
    kind: 'pglite',
    statements,
    async execScript(sql) {
      statements.add();
      await pg.exec(sql);
    },
    async query<Row>(sql: string, params: unknown[], options?: QueryOptions) {
      statements.add();
      if (options?.name) return prepared.query<Row>(options.name, sql, params);
      const result = await pg.query<Row>(sql, params);
      return { rows: result.rows, rowCount: rowCount(result) };
    },
    // One process owns the data folder, so there is nobody to race with.
    withMigrationLock: (fn) => fn(),
    async close() {
      await prisma.$disconnect();
      await pg.close();
    },
  };
}

/**
 * Creates the database (PostgreSQL's initdb) in a short-lived child process.
 * PGlite runs initdb in a second PostgreSQL instance next to the first, with
 * a copy of its whole WebAssembly memory: about 700 MB resident at the peak,
 * which a process that went on to serve would keep as its high-water mark
 * and partly as its resident set (freed memory the allocator keeps). Here
 * the gateway only ever opens an existing database, like on a restart.
 */
async function createInChildProcess(dataDir: string): Promise<void> {
  const script =
    `const { PGlite } = require(${JSON.stringify(require.resolve('@electric-sql/pglite'))});` +
    `const pg = new PGlite(${JSON.stringify(dataDir)});` +
    'pg.waitReady.then(() => pg.close()).then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });';
  // Liftoff only, as in the gateway (config/v8-flags.ts): optimizing initdb's code costs memory and CPU for one run.
  const child = spawn(process.execPath, ['--liftoff-only', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(signal ? null : exitCode));
  });
  if (code !== 0) throw new Error(`creating the embedded database in ${dataDir} failed: ${stderr.trim() || `exit code ${code}`}`);
}
