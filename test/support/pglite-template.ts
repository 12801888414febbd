import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { migrationsDigest } from './migrations-digest';

/**
 * A migrated PGlite data folder made once per set of migrations and copied
 * for each test gateway: creating a PGlite database takes seconds, copying a
 * folder takes milliseconds.
 */
export async function freshPgliteDataDir(): Promise<string> {
  const template = path.join(os.tmpdir(), `gateway-pglite-template-${migrationsDigest()}`);
  if (!existsSync(template)) {
    const building = `${template}.${process.pid}.${Date.now()}`;
    const db = await openDatabase({ dataDir: path.join(building, 'pglite') });
    await migrate(db);
    await db.close();
    try {
      renameSync(building, template);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another worker won the race
    }
  }
  const dir = path.join(os.tmpdir(), `gateway-test-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  cpSync(template, dir, { recursive: true });
  return dir;
}
