import { Client } from 'pg';
import { openDatabase } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { migrationsDigest } from './migrations-digest';

/** The server the PostgreSQL variant of the suite runs on; each test gateway gets its own database there. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Every template of the suite starts with this; the run's own is named in `GATEWAY_TEST_RUN` (jest's global setup). */
export const TEMPLATE_PREFIX = 'gateway_template_';

let counter = 0;
let template: Promise<string> | undefined;

/**
 * A fresh database for one test gateway. By default it is a copy of this
 * run's migrated template (`CREATE DATABASE … TEMPLATE`, a file copy that
 * takes milliseconds where migrating takes seconds); `empty` gives a database
 * with no migration applied.
 */
export async function createTestDatabase(opts: { empty?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gateway_test_${process.pid}_${Date.now()}_${counter++}`;
  const source = opts.empty ? undefined : await (template ??= migratedTemplate());
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"${source ? ` TEMPLATE "${source}"` : ''}`));
  return {
    url: databaseUrl(name),
    async drop() {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/**
 * This run's template, made by the first worker that needs it (the others
 * wait on an advisory lock) and dropped by the global teardown. Its name holds
 * the run and the migrations, so concurrent runs on one server, and an edited
 * migration, each get their own.
 */
async function migratedTemplate(): Promise<string> {
  const run = process.env.GATEWAY_TEST_RUN ?? `${Date.now()}_${process.pid}`;
  const name = `${TEMPLATE_PREFIX}${run}_${migrationsDigest()}`;
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount) return;
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const db = await openDatabase({ databaseUrl: databaseUrl(building), dataDir: '' }); // dataDir is PGlite's only
      try {
        await migrate(db);
      } finally {
        await db.close();
      }
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  return name;
}

/** Drops this run's templates, and those of runs that ended without their teardown more than a day ago. */
export async function dropTemplates(run: string): Promise<void> {
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${TEMPLATE_PREFIX}%`]);
    const dayAgo = Date.now() - 24 * 3600_000;
    for (const { datname } of rows) {
      const started = Number(datname.slice(TEMPLATE_PREFIX.length).split('_')[0]);
      if (datname.startsWith(`${TEMPLATE_PREFIX}${run}_`) || started < dayAgo) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
  });
}

async function withAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
