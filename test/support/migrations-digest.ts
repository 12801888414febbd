import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultMigrationsDir } from '../../src/db/migrate';

/** Names and contents of the migrations: a migration edited before it ships gets templates of its own. */
export function migrationsDigest(): string {
  const dir = defaultMigrationsDir();
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(path.join(dir, name, 'migration.sql')));
  return hash.digest('hex').slice(0, 12);
}
