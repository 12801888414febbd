import type { Database } from '../db/database';
import type { PriceTable } from './price-table';

/**
 * The version number of a price table: the same prices always get the same
 * number, a changed table gets the next one. Stored so that old usage records
 * keep pointing at the prices they were billed with. Instances starting at
 * once agree through the primary key: a lost race just looks again.
 */
export async function registerPriceTable(db: Pick<Database, 'query'>, table: PriceTable): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await db.query<{ version: number }>('SELECT "version" FROM "price_tables" WHERE "digest" = $1', [table.digest]);
    if (existing.rows.length) return Number(existing.rows[0].version);
    const next = await db.query<{ version: number }>('SELECT COALESCE(MAX("version"), 0) + 1 AS "version" FROM "price_tables"', []);
    const version = Number(next.rows[0].version);
    const inserted = await db.query(
      'INSERT INTO "price_tables" ("version", "digest", "prices") VALUES ($1, $2, $3::jsonb) ON CONFLICT DO NOTHING',
      [version, table.digest, JSON.stringify(table.canonical)],
    );
    if (inserted.rowCount === 1) return version;
  }
  throw new Error('could not register the price table after 5 attempts');
}
