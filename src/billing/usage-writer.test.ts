import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../db/database';
import { silentLogger } from '../observability/logger';
import { GatewayMetrics, valueOf } from '../observability/metrics';
import { freshPgliteDataDir } from '../../test/support/pglite-template';
import type { UsageRecordRow } from './usage-record';
import { UsageSpool } from './usage-spool';
import { UsageWriter } from './usage-writer';

function row(id: string): UsageRecordRow {
  return {
    id, keyId: 'key_1', accountId: 'acct_default', createdAt: new Date(), model: 'm', endpoint: '/v1/chat/completions',
    statusCode: 200, promptTokens: 1, completionTokens: 2, totalTokens: 3, measurement: { input: 'provider', output: 'provider' },
    dimensions: [], currency: 'USD', amountMicrousd: 12345678901234n, pricingVersion: 1, lineItems: [],
    routing: { status_code: 200, total_duration_ms: 1, ttft_ms: null, was_streaming: false },
    providerUsage: { family: 'openai', raw_fields: {} }, logId: `log_${id}`, servedBy: null, errorCode: null,
    billingState: 'final', taskId: null, heldMicrousd: null, holdId: null, parentKeyId: null,
  };
}

describe('usage writer', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await freshPgliteDataDir();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('commits concurrent writes in few batches, each promise resolving once durable', async () => {
    const db = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    const metrics = new GatewayMetrics();
    const writer = new UsageWriter(db, new UsageSpool(path.join(dir, 'spool.jsonl')), silentLogger, metrics);
    await Promise.all(Array.from({ length: 300 }, (_, i) => writer.write(row(`req_${i}`))));
    expect(await db.prisma.usageRecord.count()).toBe(300);
    expect(await valueOf(metrics.usageRecordsWritten)).toBe(300);
    // Group commit: far fewer flushes than records.
    expect(await metrics.registry.getSingleMetricAsString('gateway_usage_flush_duration_seconds')).toMatch(/gateway_usage_flush_duration_seconds_count ([1-9]|[1-4]\d)$/m);
    const stored = await db.prisma.usageRecord.findFirst({ where: { id: 'req_7' } });
    expect(stored!.amountMicrousd).toBe(12345678901234n);
    await db.close();
  });

  it('spools records when the database fails, and replays them exactly once', async () => {
    const spoolFile = path.join(dir, 'spool.jsonl');
    const broken = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    await broken.close();
    const failing = new UsageWriter(broken, new UsageSpool(spoolFile), silentLogger, new GatewayMetrics());
    // A record is its request id and the time its ticket opened: the same record, written again, has both.
    const lost = [row('req_lost_1'), row('req_lost_2')];
    await failing.write(lost[0]!);
    await failing.write(lost[1]!);
    expect(readFileSync(spoolFile, 'utf8').trim().split('\n')).toHaveLength(2);

    const db = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    const writer = new UsageWriter(db, new UsageSpool(spoolFile), silentLogger, new GatewayMetrics());
    await writer.write(lost[0]!); // already committed once by some other path
    expect(await writer.replaySpool()).toBe(2);
    expect(existsSync(spoolFile)).toBe(false);
    expect(await db.prisma.usageRecord.count()).toBe(2);
    const replayed = await db.prisma.usageRecord.findFirst({ where: { id: 'req_lost_2' } });
    expect(replayed!.amountMicrousd).toBe(12345678901234n);
    await db.close();
  });

  it('keeps good records when one in the batch is refused, and sets the refused one aside without blocking replays', async () => {
    const spoolFile = path.join(dir, 'spool.jsonl');
    const db = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    const writer = new UsageWriter(db, new UsageSpool(spoolFile), silentLogger, new GatewayMetrics());
    const poisoned = { ...row('req_bad'), model: 'x\u0000y' };
    await Promise.all([writer.write(row('req_good1')), writer.write(poisoned), writer.write(row('req_good2'))]);
    expect((await db.prisma.usageRecord.findMany()).map((r) => r.id).sort()).toEqual(['req_good1', 'req_good2']);
    expect(readFileSync(spoolFile, 'utf8')).toContain('req_bad');

    expect(await writer.replaySpool()).toBe(1);
    expect(existsSync(spoolFile)).toBe(false);
    expect(readFileSync(path.join(dir, 'spool.rejected.jsonl'), 'utf8')).toContain('req_bad');
    expect(await db.prisma.usageRecord.count()).toBe(2);
    await db.close();
  });
});
