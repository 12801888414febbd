import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statfsSync } from 'node:fs';
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
  const root = pgliteScratchRoot();
  const template = path.join(root, `gateway-pglite-template-${migrationsDigest()}`);
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
  const dir = path.join(root, `gateway-test-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** Free space a memory-backed folder needs before the suite's PGlite folders go there: each is about 40 MB while its gateway runs. */
const MEMORY_FOLDER_MIN_FREE = 4 * 1024 ** 3;

/**
 * Where the PGlite folders of the suite go: `TEST_SCRATCH_DIR` when set, else
 * a memory-backed folder (`/dev/shm`) when the machine has room there, else
 * the system's temporary folder. Each test gateway copies a 40 MB template
 * and writes to it; on a disk that is over a second of CPU a gateway on a
 * busy machine (writeback), in memory a few hundredths.
 */
export function pgliteScratchRoot(): string {
  if (process.env.TEST_SCRATCH_DIR) return process.env.TEST_SCRATCH_DIR;
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= MEMORY_FOLDER_MIN_FREE) return '/dev/shm';
  } catch {
    // No such folder on this system.
  }
  return os.tmpdir();
}

/**
 * Removes the PGlite folders that runs which ended without closing their
 * gateways (a killed run) left more than a day ago: in a memory-backed folder
 * they would hold memory until the machine restarts.
 */
export function removeStaleScratch(): void {
  const root = pgliteScratchRoot();
  const dayAgo = Date.now() - 24 * 3600_000;
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const started = /^gateway-test-\d+-(\d+)-/.exec(name)?.[1];
    if (started && Number(started) < dayAgo) rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

