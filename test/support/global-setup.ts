import { freshPgliteDataDir, removeStaleScratch } from './pglite-template';
import { rmSync } from 'node:fs';

/**
 * Once per `jest` run, before any test file: names the run (its PostgreSQL
 * template is made on first use and dropped in the global teardown) and makes
 * sure the migrated PGlite template exists, so parallel workers do not each
 * build it at once.
 */
export default async function globalSetup(): Promise<void> {
  process.env.GATEWAY_TEST_RUN ??= `${Date.now()}_${process.pid}`;
  removeStaleScratch();
  if ((process.env.TEST_DATABASES ?? 'pglite').includes('pglite')) rmSync(await freshPgliteDataDir(), { recursive: true, force: true });
}
