import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../db/database';
import { silentLogger } from '../observability/logger';
import { GatewayMetrics } from '../observability/metrics';
import { freshPgliteDataDir } from '../../test/support/pglite-template';
import type { UsageRecordRow } from './usage-record';
import { UsageSpool } from './usage-spool';
import { UsageWriter } from './usage-writer';

function row(id: string): UsageRecordRow {
  return {
    id, keyId: 'key_1', accountId: 'acct_default', createdAt: new Date(), model: 'm', endpoint: '/v1/videos',
    statusCode: 200, promptTokens: 0, completionTokens: 0, totalTokens: 0, measurement: { input: 'unavailable', output: 'local_estimate' },
    dimensions: [], currency: 'USD', amountMicrousd: 300_000n, pricingVersion: 1, lineItems: [],
    routing: { status_code: 200, total_duration_ms: 1, ttft_ms: null, was_streaming: false },
    providerUsage: { family: 'xai', raw_fields: {} }, logId: `log_${id}`, servedBy: null, errorCode: null,
    billingState: 'held', taskId: `video_${id}`, heldMicrousd: 300_000n, holdId: null, parentKeyId: null,
  };
}

const spooledIds = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).id) : []);

describe('usage spool', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await freshPgliteDataDir();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a record spooled while a drain is under way is not lost with the drained file', async () => {
    const spool = new UsageSpool(path.join(dir, 'spool.jsonl'));
    await spool.append([row('a')]);
    let release!: () => void;
    const committing = new Promise<void>((resolve) => (release = resolve));
    const drained: string[] = [];
    const drain = spool.drain(async (rows) => {
      drained.push(...rows.map((r) => r.id));
      await committing;
    });
    await new Promise((r) => setTimeout(r, 20)); // the drain has read the file and is committing
    const appended = spool.append([row('b')]);
    release();
    await Promise.all([drain, appended]);
    expect(drained).toEqual(['a']);
    expect(spooledIds(spool.file)).toEqual(['b']);
  });

  it('keeps the records a commit hands back, and only those', async () => {
    const spool = new UsageSpool(path.join(dir, 'spool.jsonl'));
    await spool.append([row('a'), row('b'), row('c')]);
    expect(await spool.drain(async (rows) => rows.filter((r) => r.id === 'b'))).toBe(2);
    expect(spooledIds(spool.file)).toEqual(['b']);
    expect(existsSync(`${spool.file}.next`)).toBe(false);
  });

  it('a replay while the database is still out keeps every record in the spool, none set aside as rejected', async () => {
    const spoolFile = path.join(dir, 'spool.jsonl');
    const broken = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    await broken.close();
    const writer = new UsageWriter(broken, new UsageSpool(spoolFile), silentLogger, new GatewayMetrics());
    await writer.write(row('held_1'));
    await writer.write(row('held_2'));
    expect(spooledIds(spoolFile)).toEqual(['held_1', 'held_2']);

    expect(await writer.replaySpool()).toBe(0);
    expect(spooledIds(spoolFile)).toEqual(['held_1', 'held_2']);
    expect(existsSync(path.join(dir, 'spool.rejected.jsonl'))).toBe(false);

    const db = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    const back = new UsageWriter(db, new UsageSpool(spoolFile), silentLogger, new GatewayMetrics());
    expect(await back.replaySpool()).toBe(2);
    expect((await db.prisma.usageRecord.findMany({ orderBy: { id: 'asc' } })).map((r) => [r.id, r.billingState])).toEqual([
      ['held_1', 'held'],
      ['held_2', 'held'],
    ]);
    await db.close();
  });
});
