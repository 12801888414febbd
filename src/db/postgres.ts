import { PrismaPg } from '@prisma/adapter-pg';
import { Client, Pool } from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import type { Database, DatabaseTimeouts, QueryOptions } from './database';
import { isStalePreparedStatement } from './stale-prepared-statement';
import { StatementCount } from './statement-count';

/** An arbitrary but fixed key for pg_advisory_lock, so instances migrate one at a time. */
const MIGRATION_LOCK_KEY = 7_340_001;

/**
 * A pool whose every query ends: the server cancels a statement past
 * `statementMs` and a lock wait past `lockMs`; the driver gives up on a
 * connection after `connectMs`, and on a query whose answer never comes
 * (a dead link) a little after the statement time-out; TCP keepalive finds
 * dead links that carry no query.
 */
export async function openPostgres(connectionString: string, poolSize: number, timeouts: DatabaseTimeouts, preparedStatements: boolean): Promise<Database> {
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
  const statements = new StatementCount();
  const prisma = new PrismaClient({ adapter: statements.adapter(new PrismaPg(pool)) });
  return {
    prisma,
    kind: 'postgres',
    statements,
    async execScript(sql) {
      statements.add();
      // Migrations may rewrite a large table or wait for a lock: none of the pool's time-outs apply to them.
      await withUnboundedClient(connectionString, timeouts.connectMs, (client) => client.query(sql));
    },
    async query<Row>(sql: string, params: unknown[], options?: QueryOptions) {
      statements.add();
      const name = preparedStatements ? options?.name : undefined;
      const result = await pool.query(name ? { name, text: sql, values: params } : { text: sql, values: params }).catch((err: unknown) => {
        // The statement this connection prepared no longer fits the schema (a migration of a newer instance changed a
        // result type) or is gone (a pooler reset the session): the pool has closed that connection; once more, on
        // another one, where it is prepared anew.
        if (name && isStalePreparedStatement(err)) return pool.query({ name, text: sql, values: params });
        throw err;
      });
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
    async withMigrationLock(fn) {
      // Waiting for another instance's migrations may take longer than any one statement should.
      return withUnboundedClient(connectionString, timeouts.connectMs, async (client) => {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        }
      });
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** A connection of its own, outside the pool and without its statement, lock and read time-outs (migrations). */
async function withUnboundedClient<T>(connectionString: string, connectMs: number, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString, connectionTimeoutMillis: connectMs, keepAlive: true });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
