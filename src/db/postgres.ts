import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import type { Database } from './database';

/** An arbitrary but fixed key for pg_advisory_lock, so instances migrate one at a time. */
const MIGRATION_LOCK_KEY = 7_340_001;

export async function openPostgres(connectionString: string, poolSize: number): Promise<Database> {
  const pool = new Pool({ connectionString, max: poolSize });
  // An idle connection the server closes (a restart, a failover, an administrator) leaves the pool by
  // itself and the next query reconnects; unhandled, the 'error' event would end the process.
  pool.on('error', () => undefined);
  // Fail at start-up with the driver's own message rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    kind: 'postgres',
    async execScript(sql) {
      await pool.query(sql);
    },
    async query<Row>(sql: string, params: unknown[]) {
      const result = await pool.query(sql, params);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
    async withMigrationLock(fn) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
