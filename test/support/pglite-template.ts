import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database';
import { defaultMigrationsDir, migrate } from '../../src/db/migrate';

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

/** Names and contents: a migration edited before it ships gets a template of its own. */
function migrationsDigest(): string {
  const dir = defaultMigrationsDir();
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(path.join(dir, name, 'migration.sql')));
  return hash.digest('hex').slice(0, 12);
}
