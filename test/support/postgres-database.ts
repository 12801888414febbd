import { Client } from 'pg';

/** The server the PostgreSQL variant of the suite runs on; each test gateway gets its own database there. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let counter = 0;

export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gateway_test_${process.pid}_${Date.now()}_${counter++}`;
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: TEST_POSTGRES_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
