import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './database';
import { packageRoot } from '../config/package-root';

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

/**
 * Applies `prisma/migrations/<timestamp>_<name>/migration.sql` in order, each
 * once, recording them in `_gateway_migrations`. The Prisma CLI's migrate
 * commands need a native engine that is not available offline, and the same
 * SQL runs as is on PostgreSQL and on PGlite.
 */
export async function migrate(db: Database, migrationsDir = defaultMigrationsDir()): Promise<MigrationResult> {
  return db.withMigrationLock(async () => {
    await db.execScript(
      'CREATE TABLE IF NOT EXISTS "_gateway_migrations" ("name" TEXT PRIMARY KEY, "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const { rows } = await db.query<{ name: string }>('SELECT "name" FROM "_gateway_migrations"', []);
    const done = new Set(rows.map((r) => r.name));
    const applied: string[] = [];
    for (const name of listMigrations(migrationsDir)) {
      if (done.has(name)) continue;
      const sql = readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
      const escapedName = name.replace(/'/g, "''");
      await db.execScript(`BEGIN;\n${sql}\nINSERT INTO "_gateway_migrations" ("name") VALUES ('${escapedName}');\nCOMMIT;`);
      applied.push(name);
    }
    return { applied, alreadyApplied: done.size };
  });
}

export function defaultMigrationsDir(): string {
  return path.join(packageRoot(), 'prisma', 'migrations');
}

function listMigrations(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort();
}
