import { insertUsageRecords } from '../billing/usage-record-insert';
import { UsageShapes } from '../billing/usage-shapes';
import { chatRecordRow } from '../../test/support/usage-record-row';
import { createTestDatabase } from '../../test/support/postgres-database';
import { openDatabase, type Database } from './database';

/** The statements prepared on the pool's one connection. */
async function prepared(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('SELECT "name" FROM pg_prepared_statements ORDER BY "name"', []);
  return rows.map((r) => r.name);
}

describe('named statements on PostgreSQL', () => {
  let pg: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    pg = await createTestDatabase();
  });
  afterAll(() => pg.drop());

  it('are prepared once per connection and then executed by name, the usage-record insert among them', async () => {
    const db = await openDatabase({ databaseUrl: pg.url, dataDir: '', poolSize: 1 });
    try {
      for (const n of [1, 2]) expect((await db.query<{ n: number }>('SELECT $1::int + 1 AS "n"', [n], { name: 'test_add_one' })).rows).toEqual([{ n: n + 1 }]);
      const row = (id: string) => chatRecordRow({ id, keyId: 'key_prepared', accountId: 'acct_default', createdAt: new Date() });
      await insertUsageRecords(db, new UsageShapes(db), [row('req_prepared_1')]);
      await insertUsageRecords(db, new UsageShapes(db), [row('req_prepared_2')]);
      expect(await prepared(db)).toEqual(['test_add_one', 'usage_records_insert_rollups']);
      expect((await db.query('SELECT 1 FROM "usage_records" WHERE "id" LIKE $1', ['req_prepared_%'])).rowCount).toBe(2);
      // One name is one statement: a second text under a name already taken is refused, not run.
      await expect(db.query('SELECT $1::int + 2 AS "n"', [1], { name: 'test_add_one' })).rejects.toThrow(/must be unique/);
    } finally {
      await db.close();
    }
  });

  it('are prepared anew when a migration changed what one returns, the call that met the stale one included', async () => {
    const db = await openDatabase({ databaseUrl: pg.url, dataDir: '', poolSize: 1 });
    try {
      await db.query('CREATE TABLE "prepared_shape" ("a" int)', []);
      await db.query('INSERT INTO "prepared_shape" VALUES (1)', []);
      const read = () => db.query('SELECT * FROM "prepared_shape"', [], { name: 'test_read_shape' });
      expect((await read()).rows).toEqual([{ a: 1 }]);
      // Another instance's migration: the prepared plan's result type no longer fits.
      await db.query('ALTER TABLE "prepared_shape" ADD COLUMN "b" text DEFAULT \'x\'', []);
      expect((await read()).rows).toEqual([{ a: 1, b: 'x' }]);
      expect((await read()).rows).toEqual([{ a: 1, b: 'x' }]);
    } finally {
      await db.close();
    }
  });

  it('stay unnamed with prepared statements off (a pooler in transaction mode)', async () => {
    const db = await openDatabase({ databaseUrl: pg.url, dataDir: '', poolSize: 1, preparedStatements: false });
    try {
      expect((await db.query<{ n: number }>('SELECT $1::int + 1 AS "n"', [1], { name: 'test_add_one' })).rows).toEqual([{ n: 2 }]);
      expect(await prepared(db)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
