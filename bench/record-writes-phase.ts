import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UsageRecordRow } from '../src/billing/usage-record';
import { UsageSpool } from '../src/billing/usage-spool';
import { UsageWriter } from '../src/billing/usage-writer';
import { openDatabase } from '../src/db/database';
import { silentLogger } from '../src/observability/logger';
import { GatewayMetrics, valueOf } from '../src/observability/metrics';
import { against } from './context';
import type { Phase } from './phases';
import { withClient } from './postgres';
import { progress } from './progress';
import { round } from './stats';
import { fmt } from './table';

/** Records in flight at once: the requests a busy instance has waiting on their record. */
const IN_FLIGHT = 1_000;
const TARGET_PER_S = 5_000;
const ID_PREFIX = 'req_benchwrite_';
const MANY_KEYS = 10_000;
const MANY_ACCOUNTS = 100;
let written = 0;

/** Keeps IN_FLIGHT records waiting on the writer for `seconds`; what it wrote, and how fast they were committed. */
async function measure(writer: UsageWriter, seconds: number, owner: (i: number) => { keyId: string; accountId: string }) {
  progress(`record_writes: ${IN_FLIGHT} records in flight for ${seconds} s`);
  const first = written;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (performance.now() < deadline) {
      const i = written++;
      await writer.write({ ...row(`${ID_PREFIX}${i}`), ...owner(i) });
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  return { written: written - first, seconds: elapsed, perSecond: (written - first) / elapsed };
}

/**
 * How many usage records one instance can make durable per second: the
 * gateway's own group-commit writer (src/billing/usage-writer.ts), run in
 * the bench process against the bench's PostgreSQL database, with a
 * thousand records waiting at any time (each `write()` resolves once its
 * record is committed). The records are counted in the database, and what
 * each costs to keep is read there (`pg_column_size` of the row, and the
 * table's and its indexes' bytes per record); then they are deleted so
 * that the run's usage-record check stays exact.
 */
export const recordWrites: Phase = {
  id: 'record_writes',
  async run(ctx) {
    const { report, settings } = ctx;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-writes-'));
    const db = await openDatabase({ databaseUrl: ctx.gatewayEnv.DATABASE_URL!, dataDir: dir });
    const metrics = new GatewayMetrics();
    const writer = new UsageWriter(db, new UsageSpool(path.join(dir, 'spool.jsonl')), silentLogger, metrics);
    try {
      const oneKey = await measure(writer, settings.seconds, () => ({ keyId: 'key_bench', accountId: 'acct_default' }));
      // The same writer with each record on one of 10,000 keys of 100 accounts: the roll-ups by key and by account
      // then take a row per key and day instead of one hot row, as on a gateway with many tenants.
      const manyKeys = await measure(writer, settings.seconds, (i) => ({ keyId: `key_bench_${i % MANY_KEYS}`, accountId: `acct_bench_${i % MANY_ACCOUNTS}` }));
      const n = oneKey.written + manyKeys.written;
      const { committed, rowBytes, tableBytes, indexBytes } = await withClient(ctx.gatewayEnv.DATABASE_URL!, async (c) => {
        const { rows } = await c.query<{ n: string; row_bytes: string }>(
          `SELECT count(*)::text AS n, coalesce(round(avg(pg_column_size(u.*))), 0)::text AS row_bytes FROM usage_records u WHERE id LIKE '${ID_PREFIX}%'`,
        );
        // Every partition of the table (or the table itself), with its TOAST, and every index on it.
        const sizes = await c.query<{ table_bytes: string; index_bytes: string }>(
          `SELECT coalesce(sum(pg_table_size(r.oid)), 0)::text AS table_bytes, coalesce(sum(pg_indexes_size(r.oid)), 0)::text AS index_bytes FROM pg_class r
           WHERE r.oid = 'usage_records'::regclass OR r.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'usage_records'::regclass)`,
        );
        return { committed: Number(rows[0]!.n), rowBytes: Number(rows[0]!.row_bytes), tableBytes: Number(sizes.rows[0]!.table_bytes), indexBytes: Number(sizes.rows[0]!.index_bytes) };
      });
      const spooled = await valueOf(metrics.usageRecordsSpooled);
      report.section(`Usage records: the group-commit writer alone, ${IN_FLIGHT} in flight, on the bench's PostgreSQL, roll-ups maintained`);
      report.row('records made durable per second, one key', `${fmt.int(oneKey.perSecond)} /s`, '', '', `>= ${fmt.int(TARGET_PER_S)} /s`, against(-oneKey.perSecond, -TARGET_PER_S));
      report.row(`records made durable per second, ${fmt.int(MANY_KEYS)} keys of ${MANY_ACCOUNTS} accounts`, `${fmt.int(manyKeys.perSecond)} /s`, '', '', `>= ${fmt.int(TARGET_PER_S)} /s`, against(-manyKeys.perSecond, -TARGET_PER_S));
      report.row('records written / found in the database / spooled', `${fmt.int(n)} / ${fmt.int(committed)} / ${fmt.int(spooled)}`, '', '', 'equal, 0 spooled', committed === n && spooled === 0 ? 'ok' : 'FAIL');
      report.row('bytes per record: the row / table and indexes on disk', `${fmt.int(rowBytes)} / ${fmt.int(tableBytes / Math.max(committed, 1))} + ${fmt.int(indexBytes / Math.max(committed, 1))}`, '', '', '', '');
      if (committed !== n) report.fail(`record_writes: ${n} records written, ${committed} in the database`);
      report.json[this.id] = {
        in_flight: IN_FLIGHT, seconds: round(oneKey.seconds, 2), records: n, committed, spooled, per_second: round(oneKey.perSecond, 0),
        many_keys: { keys: MANY_KEYS, accounts: MANY_ACCOUNTS, seconds: round(manyKeys.seconds, 2), per_second: round(manyKeys.perSecond, 0) },
        row_bytes: rowBytes, table_bytes_per_record: round(tableBytes / Math.max(committed, 1), 0), index_bytes_per_record: round(indexBytes / Math.max(committed, 1), 0),
      };
    } finally {
      await withClient(ctx.gatewayEnv.DATABASE_URL!, (c) => c.query(`DELETE FROM usage_records WHERE id LIKE '${ID_PREFIX}%'`));
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

function row(id: string): UsageRecordRow {
  return {
    id, keyId: 'key_bench', accountId: 'acct_default', createdAt: new Date(), model: 'gpt-4.1-mini', endpoint: '/v1/chat/completions',
    statusCode: 200, promptTokens: 12, completionTokens: 20, totalTokens: 32, measurement: { input: 'provider', output: 'provider' },
    dimensions: [{ name: 'input', quantity: 12, unit: 'tokens' }, { name: 'output', quantity: 20, unit: 'tokens' }],
    currency: 'USD', amountMicrousd: 37n, pricingVersion: 1,
    lineItems: [{ dimension: 'input', quantity: 12, unit_microusd: 0.4, amount_microusd: 5 }],
    routing: { status_code: 200, total_duration_ms: 3, ttft_ms: null, was_streaming: false },
    providerUsage: { family: 'openai', raw_fields: {} }, logId: `log_${id}`, servedBy: { provider: 'openai', upstream_model: 'gpt-4.1-mini', lane: 'standard', attempts: 1 },
    errorCode: null, billingState: 'final', taskId: null, heldMicrousd: null, holdId: null, parentKeyId: null,
  };
}
