import { PrismaClient } from '../generated/prisma/client';
import type { StatementCount } from './statement-count';

/** The data layer the gateway runs on: one Prisma client plus raw SQL for migrations. */
export interface Database {
  readonly prisma: PrismaClient;
  readonly kind: 'postgres' | 'pglite';
  /** Runs one or more SQL statements outside Prisma (migrations). */
  execScript(sql: string): Promise<void>;
  /**
   * One parameterised statement straight through the driver, for the hot
   * path where Prisma's per-query compilation costs more than the query.
   */
  query<Row = Record<string, unknown>>(sql: string, params: unknown[], options?: QueryOptions): Promise<{ rows: Row[]; rowCount: number }>;
  /** SQL statements sent so far, through Prisma and `query` alike (see statement-count.ts). */
  readonly statements: Pick<StatementCount, 'value'>;
  /** Serialises migrations across processes that share the database. */
  withMigrationLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface QueryOptions {
  /**
   * Names a fixed statement of the hot path (one name, one SQL text): on
   * PostgreSQL each connection parses and plans it once and then only
   * executes it. The usage-record insert with its roll-ups took 2.0 ms parsed
   * and planned each time against 0.8 ms prepared, commit included. A
   * statement a migration left stale (its result type changed) is prepared
   * anew on another connection. Unnamed with
   * `GATEWAY_DB_PREPARED_STATEMENTS=false` (a pooler in transaction mode that
   * does not keep them). PGlite keeps them too (pglite-prepared-statements.ts).
   */
  name?: string;
}

export interface DatabaseOptions {
  /** `postgres://…` selects PostgreSQL; absent selects embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data folder. */
  dataDir: string;
  /** Connection pool size on PostgreSQL. */
  poolSize?: number;
  /** PostgreSQL time-outs, so a locked table or a dead link fails a query instead of hanging it. */
  timeouts?: DatabaseTimeouts;
  /** Named statements are prepared once per connection (true unless a pooler in between cannot keep them). */
  preparedStatements?: boolean;
}

export interface DatabaseTimeouts {
  statementMs: number;
  lockMs: number;
  connectMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { statementMs: 10_000, lockMs: 2_000, connectMs: 5_000 };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    // Loaded lazily so that one database's driver never costs the other's memory.
    const { openPostgres } = require('./postgres') as typeof import('./postgres.js');
    return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS, options.preparedStatements ?? true);
  }
  const { openPglite } = require('./pglite') as typeof import('./pglite.js');
  return openPglite(options.dataDir);
}
