import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import type { Database, DatabaseTimeouts } from './database';

/** An arbitrary but fixed key for pg_advisory_lock, so instances migrate one at a time. */
const MIGRATION_LOCK_KEY = 7_340_001;

/**
 * A pool whose every query ends: the server cancels a statement past
 * `statementMs` and a lock wait past `lockMs`; the driver gives up on a
 * connection after `connectMs`, and on a query whose answer never comes
 * (a dead link) a little after the statement time-out; TCP keepalive finds
 * dead links that carry no query.
 */
export async function openPostgres(connectionString: string, poolSize: number, timeouts: DatabaseTimeouts): Promise<Database> {
  const pool = new Pool({
    connectionString,
    max: poolSize,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs || undefined,
    lock_timeout: timeouts.lockMs || undefined,
    idle_in_transaction_session_timeout: timeouts.statementMs ? timeouts.statementMs * 3 : undefined,
    query_timeout: timeouts.statementMs ? timeouts.statementMs + 5_000 : undefined,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
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
      // Migrations may rewrite a large table: no statement time-out for them.
      const client = await pool.connect();
      try {
        await client.query('SET statement_timeout = 0');
        await client.query(sql);
      } finally {
        await client.query('RESET statement_timeout').catch(() => undefined);
        client.release();
      }
    },
    async query<Row>(sql: string, params: unknown[]) {
      const result = await pool.query(sql, params);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
    async withMigrationLock(fn) {
      const client = await pool.connect();
      try {
        // Waiting for another instance's migrations may take longer than any one statement should.
        await client.query('SET statement_timeout = 0');
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        await client.query('RESET statement_timeout').catch(() => undefined);
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
