import { rmSync } from 'node:fs';
import path from 'node:path';
import { insertUsageRecords } from '../billing/usage-record-insert';
import { UsageShapes } from '../billing/usage-shapes';
import { chatRecordRow } from '../../test/support/usage-record-row';
import { createTestDatabase } from '../../test/support/postgres-database';
import { freshPgliteDataDir } from '../../test/support/pglite-template';
import { openDatabase, type Database } from './database';

/** The statements prepared on the pool's one connection. */
async function prepared(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('SELECT "name" FROM pg_prepared_statements ORDER BY "name"', []);
  return rows.map((r) => r.name);
}

/** A named statement read once, then a migration changes what it returns: the next call (and the one after) answers in the new shape. */
async function expectStaleStatementPreparedAnew(db: Database): Promise<void> {
  await db.query('CREATE TABLE "prepared_shape" ("a" int)', []);
  await db.query('INSERT INTO "prepared_shape" VALUES (1)', []);
  const read = () => db.query('SELECT * FROM "prepared_shape"', [], { name: 'test_read_shape' });
  expect((await read()).rows).toEqual([{ a: 1 }]);
  // Another instance's migration: the prepared plan's result type no longer fits.
  await db.query('ALTER TABLE "prepared_shape" ADD COLUMN "b" text DEFAULT \'x\'', []);
  expect((await read()).rows).toEqual([{ a: 1, b: 'x' }]);
  expect((await read()).rows).toEqual([{ a: 1, b: 'x' }]);
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
      await expectStaleStatementPreparedAnew(db);
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

describe('named statements on PGlite', () => {
  let dir: string;
  let db: Database;
  beforeEach(async () => {
    dir = await freshPgliteDataDir();
    db = await openDatabase({ dataDir: path.join(dir, 'pglite') });
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are prepared once and answer as unnamed statements do, the usage-record insert among them', async () => {
    const sql = 'SELECT $1::int + 1 AS "n", $2::text AS "t", $3::bigint AS "big", $4::timestamptz AS "at", $5::jsonb AS "j", $6::text AS "none"';
    const params = [1, 'x', 9007199254740993n, new Date('2026-01-02T03:04:05.678Z'), { a: [1] }, null];
    const unnamed = await db.query(sql, params);
    for (let i = 0; i < 2; i++) expect(await db.query(sql, params, { name: 'test_shapes' })).toEqual(unnamed);
    const row = (id: string) => chatRecordRow({ id, keyId: 'key_prepared', accountId: 'acct_default', createdAt: new Date() });
    await insertUsageRecords(db, new UsageShapes(db), [row('req_prepared_1')]);
    await insertUsageRecords(db, new UsageShapes(db), [row('req_prepared_2')]);
    expect(await prepared(db)).toEqual(['test_shapes', 'usage_records_insert_rollups']);
    expect((await db.query('SELECT 1 FROM "usage_records" WHERE "id" LIKE $1', ['req_prepared_%'])).rowCount).toBe(2);
    expect((await db.query('UPDATE "usage_records" SET "status_code" = "status_code" WHERE "id" LIKE $1', ['req_prepared_%'], { name: 'test_touch' })).rowCount).toBe(2);
    await expect(db.query('SELECT $1::int + 2 AS "n"', [1], { name: 'test_shapes' })).rejects.toThrow(/must be unique/);
  });

  it('fail with PostgreSQL\'s error and leave the database serving: a bad statement, a failed execution', async () => {
    await expect(db.query('SELEC 1', [], { name: 'test_typo' })).rejects.toMatchObject({ code: '42601' });
    await db.query('CREATE TABLE "prepared_unique" ("a" int PRIMARY KEY)', []);
    const insert = (a: number) => db.query('INSERT INTO "prepared_unique" VALUES ($1)', [a], { name: 'test_insert_unique' });
    await insert(1);
    await expect(insert(1)).rejects.toMatchObject({ code: '23505' });
    await insert(2);
    expect((await db.query('SELECT count(*)::int AS "n" FROM "prepared_unique"', [])).rows).toEqual([{ n: 2 }]);
  });

  it('are prepared anew when a migration changed what one returns', async () => {
    await expectStaleStatementPreparedAnew(db);
  });

  it('wait for an open transaction of Prisma\'s instead of running inside it', async () => {
    await db.query('CREATE TABLE "prepared_tx" ("a" int)', []);
    let named: Promise<unknown> | undefined;
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('INSERT INTO "prepared_tx" VALUES (1)');
        named = db.query('INSERT INTO "prepared_tx" VALUES ($1)', [2], { name: 'test_insert_tx' });
        await new Promise((r) => setTimeout(r, 50));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await named;
    expect((await db.query('SELECT "a" FROM "prepared_tx"', [])).rows).toEqual([{ a: 2 }]);
  });
});
