import os from 'node:os';
import { Client } from 'pg';

/**
 * A throw-away PostgreSQL database for one bench run: `bench_<timestamp>`,
 * created on the server named by BENCH_PG_URL (default: the local server as
 * the current OS user, trust auth) and dropped at the end.
 */

export function adminUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BENCH_PG_URL) return env.BENCH_PG_URL;
  return `postgres://${encodeURIComponent(os.userInfo().username)}@127.0.0.1:5432/postgres`;
}

/** The same server URL pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One connection for the length of `fn`. */
export async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface BenchDatabase {
  name: string;
  url: string;
  /** Drops the database (forcing out any connection left behind); safe to call twice. */
  drop(): Promise<void>;
}

/** `prefix` names what the database is for (`bench`, or a stand-alone bench's own). */
export async function createBenchDatabase(env: NodeJS.ProcessEnv = process.env, prefix = 'bench'): Promise<BenchDatabase> {
  const admin = adminUrl(env);
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const name = `${prefix}_${stamp}_${process.pid}`;
  await withClient(admin, (c) => c.query(`CREATE DATABASE "${name}"`));
  let dropped = false;
  return {
    name,
    url: withDatabase(admin, name),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

export async function countRows(url: string, table: string): Promise<number> {
  return withClient(url, async (c) => {
    const res = await c.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
    return Number(res.rows[0]?.n ?? 0);
  });
}
