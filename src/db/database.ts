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
  query<Row = Record<string, unknown>>(sql: string, params: unknown[]): Promise<{ rows: Row[]; rowCount: number }>;
  /** SQL statements sent so far, through Prisma and `query` alike (see statement-count.ts). */
  readonly statements: Pick<StatementCount, 'value'>;
  /** Serialises migrations across processes that share the database. */
  withMigrationLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
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
    return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS);
  }
  const { openPglite } = require('./pglite') as typeof import('./pglite.js');
  return openPglite(options.dataDir);
}
