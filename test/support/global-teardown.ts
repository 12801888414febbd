import { dropTemplates } from './postgres-database';

/** Once per `jest` run, after every test file: drops the run's PostgreSQL template (see postgres-database.ts). */
export default async function globalTeardown(): Promise<void> {
  const run = process.env.GATEWAY_TEST_RUN;
  if (!run || !(process.env.TEST_DATABASES ?? 'postgres').includes('postgres')) return;
  try {
    await dropTemplates(run);
  } catch (err) {
    process.stderr.write(`could not drop the PostgreSQL test templates: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
