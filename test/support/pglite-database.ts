import { rmSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/db/database';
import { freshPgliteDataDir } from './pglite-template';

/**
 * A fresh, migrated PGlite database for the describe block it is called in,
 * closed and removed after its tests. Call the returned function inside a
 * test to get it.
 */
export function pgliteDatabase(): () => Database {
  let dir: string | undefined;
  let db: Database | undefined;
  beforeAll(async () => {
    dir = await freshPgliteDataDir();
    db = await openDatabase({ dataDir: path.join(dir, 'pglite') });
  });
  afterAll(async () => {
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => db!;
}
