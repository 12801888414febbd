import { insertUsageRecords } from './usage-record-insert';
import { UsageShapes } from './usage-shapes';
import path from 'node:path';
import { readEnv } from '../config/env';
import { openDatabase } from '../db/database';
import { silentLogger } from '../observability/logger';
import { GatewayMetrics } from '../observability/metrics';
import { openTestDatabase, type OpenedTestDatabase } from '../../test/support/database-of-kind';
import { TEST_DATABASES } from '../../test/support/test-gateway';
import { insertSampleKeys, sampleRecords } from '../../test/support/usage-record-samples';
import { runRollupsCommand } from './usage-rollups-cli';
import { UsageSpool } from './usage-spool';
import { UsageWriter } from './usage-writer';

describe.each(TEST_DATABASES)('gateway rollups check | rebuild (%s)', (kind) => {
  let t: OpenedTestDatabase;
  afterEach(() => t?.close());

  /** Runs the command as the CLI would, on the test's database (the embedded one closed meanwhile: it allows one opener). */
  async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
    const env = readEnv({ GATEWAY_DATA_DIR: t.dir, ...(t.url ? { DATABASE_URL: t.url } : {}) });
    if (!t.url) await t.db.close();
    try {
      return { code: await runRollupsCommand(argv, env), out: out.join(''), err: err.join('') };
    } finally {
      jest.restoreAllMocks();
      if (!t.url) t.db = await openDatabase({ dataDir: path.join(t.dir, 'pglite') });
    }
  }

  it('lists the days whose roll-ups miss records, rebuilds them, and then finds none; never rebuilds before the oldest record', async () => {
    t = await openTestDatabase(kind);
    await insertSampleKeys(t.db);
    const writer = new UsageWriter(t.db, new UsageSpool(path.join(t.dir, 'spool.jsonl')), silentLogger, new GatewayMetrics());
    const rolled = sampleRecords({ count: 60, seed: 21, start: new Date('2026-11-03T00:00:00Z'), days: 3 });
    await Promise.all(rolled.map((r) => writer.write(r)));
    // Committed by an older version, which kept no roll-ups.
    await insertUsageRecords(t.db, new UsageShapes(t.db), sampleRecords({ count: 5, seed: 22, start: new Date('2026-11-04T00:00:00Z'), days: 1, prefix: 'old' }), { rollups: false });

    const check = await run('check', '--to', '2026-11-07');
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/^2026-11-04 usage_daily: \d+ group\(s\) differ/m);
    expect(check.out).not.toMatch(/^2026-11-0[35] /m);

    const tooEarly = await run('rebuild', '--from', '2026-11-02', '--to', '2026-11-07');
    expect(tooEarly.code).toBe(2);
    expect(tooEarly.err).toContain('before the oldest usage record (2026-11-03)');
    expect((await run('rebuild', '--from', 'yesterday')).code).toBe(2);
    expect((await run('compact')).code).toBe(2);

    const rebuild = await run('rebuild', '--to', '2026-11-07');
    expect(rebuild).toMatchObject({ code: 0, out: expect.stringContaining('rebuilt the roll-ups of 4 day(s), 2026-11-03 to 2026-11-07') });
    const after = await run('check', '--to', '2026-11-07');
    expect(after).toMatchObject({ code: 0, out: expect.stringContaining("the roll-ups equal the records' sums") });
  });
});

