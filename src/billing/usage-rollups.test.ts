import { insertUsageRecords } from './usage-record-insert';
import { UsageShapes } from './usage-shapes';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, defaultMigrationsDir } from '../db/migrate';
import { silentLogger } from '../observability/logger';
import { GatewayMetrics } from '../observability/metrics';
import { openTestDatabase, type OpenedTestDatabase } from '../../test/support/database-of-kind';
import { TEST_DATABASES } from '../../test/support/test-gateway';
import { insertSampleKeys, sampleRecord, sampleRecords } from '../../test/support/usage-record-samples';
import { Ledger } from './ledger';
import { refundHeldCharge, settleHeldCharge } from './task-billing';
import type { UsageRecordRow } from './usage-record';
import { usageRollupDifferences } from './usage-rollup-check';
import { rebuildUsageRollups } from './usage-rollup-rebuild';
import { UsageSpool } from './usage-spool';
import { UsageWriter } from './usage-writer';

const START = new Date('2026-11-03T00:00:00Z');
const DAYS = { from: '2026-11-01', to: '2026-11-12' };
const ROLLUPS_MIGRATION = '20261202010000_usage_rollups';

/** What every roll-up table adds up to: each must hold every record once, whatever its grain. */
async function rolledUpTotals(t: OpenedTestDatabase): Promise<Array<{ table: string; requests: string; amount: string }>> {
  const out = [];
  for (const table of ['usage_daily', 'usage_hourly', 'usage_daily_by_account', 'usage_daily_by_key']) {
    const { rows } = await t.db.query<{ requests: string; amount: string }>(
      `SELECT coalesce(sum("requests"), 0)::text AS "requests", coalesce(sum("amount_microusd"), 0)::text AS "amount" FROM "${table}"`,
      [],
    );
    out.push({ table, ...rows[0] });
  }
  return out;
}

async function recordTotals(t: OpenedTestDatabase): Promise<{ requests: string; amount: string }> {
  const { rows } = await t.db.query<{ requests: string; amount: string }>(
    'SELECT count(*)::text AS "requests", coalesce(sum("amount_microusd"), 0)::text AS "amount" FROM "usage_records"',
    [],
  );
  return rows[0];
}

/** Every roll-up agrees with the records group by group, and each adds up to `expected`. */
async function expectRollupsToHold(t: OpenedTestDatabase, expected: { requests: number; amount: bigint }): Promise<void> {
  expect(await usageRollupDifferences(t.db, DAYS)).toEqual([]);
  expect(await recordTotals(t)).toEqual({ requests: String(expected.requests), amount: String(expected.amount) });
  for (const sums of await rolledUpTotals(t)) expect(sums).toEqual({ table: sums.table, requests: String(expected.requests), amount: String(expected.amount) });
}

const sumOf = (rows: UsageRecordRow[]) => ({ requests: rows.length, amount: rows.reduce((a, r) => a + r.amountMicrousd, 0n) });

describe.each(TEST_DATABASES)('usage roll-ups (%s)', (kind) => {
  let t: OpenedTestDatabase;
  beforeEach(async () => {
    t = await openTestDatabase(kind);
    await insertSampleKeys(t.db);
  });
  afterEach(() => t.close());

  const writerWith = (spool: UsageSpool) => new UsageWriter(t.db, spool, silentLogger, new GatewayMetrics());
  const spoolFile = () => new UsageSpool(path.join(t.dir, 'spool.jsonl'));

  it("equal the records' sums after concurrent writes, group by group", async () => {
    const records = sampleRecords({ count: 700, seed: 1, start: START, days: 5 });
    const writer = writerWith(spoolFile());
    await Promise.all(records.map((r) => writer.write(r)));
    await expectRollupsToHold(t, sumOf(records));
  });

  it('count a record once however often it is written or replayed', async () => {
    const records = sampleRecords({ count: 120, seed: 2, start: START, days: 3 });
    const spool = spoolFile();
    const writer = writerWith(spool);
    await Promise.all(records.map((r) => writer.write(r)));
    // Written again (a retry after a commit whose answer was lost), and spooled as a shutdown deadline would have.
    await Promise.all(records.slice(0, 40).map((r) => writer.write(r)));
    await spool.append(records.slice(20, 80));
    expect(await writer.replaySpool()).toBe(60);
    await expectRollupsToHold(t, sumOf(records));
  });

  it('leave out a batch that failed midway, and count its records once when they come back', async () => {
    const records = sampleRecords({ count: 200, seed: 3, start: START, days: 4 });
    const poisoned = records[137];
    // The batch's statement fails after some of its rows were inserted: none of it may remain, roll-ups included.
    await t.db.execScript(`
      CREATE FUNCTION "test_refuse_record"() RETURNS trigger AS $$
      BEGIN
        IF NEW."id" = '${poisoned.id}' THEN RAISE EXCEPTION 'refused (test)' USING ERRCODE = '23514'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER "test_refuse_record" BEFORE INSERT ON "usage_records" FOR EACH ROW EXECUTE FUNCTION "test_refuse_record"();`);
    const spool = spoolFile();
    const writer = writerWith(spool);
    await Promise.all(records.map((r) => writer.write(r)));
    await expectRollupsToHold(t, sumOf(records.filter((r) => r !== poisoned)));

    await t.db.execScript('DROP TRIGGER "test_refuse_record" ON "usage_records"');
    expect(await writer.replaySpool()).toBe(1);
    await expectRollupsToHold(t, sumOf(records));
  });

  it('commit no record whose roll-up could not be written: the batch goes to the spool whole and comes back once', async () => {
    const records = sampleRecords({ count: 90, seed: 4, start: START, days: 2 });
    await t.db.execScript(`
      CREATE FUNCTION "test_refuse_rollup"() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'roll-up refused (test)'; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER "test_refuse_rollup" BEFORE INSERT OR UPDATE ON "usage_hourly" FOR EACH ROW EXECUTE FUNCTION "test_refuse_rollup"();`);
    const spool = spoolFile();
    const writer = writerWith(spool);
    await Promise.all(records.map((r) => writer.write(r)));
    await expectRollupsToHold(t, { requests: 0, amount: 0n });

    await t.db.execScript('DROP TRIGGER "test_refuse_rollup" ON "usage_hourly"');
    expect(await writer.replaySpool()).toBe(records.length);
    expect(await writer.replaySpool()).toBe(0);
    await expectRollupsToHold(t, sumOf(records));
  });

  it('follow a held charge settled for what was delivered, or refunded, exactly once', async () => {
    const held = (id: string, amount: bigint, createdAt: Date): UsageRecordRow =>
      sampleRecord({
        id, keyId: 'key_a1', accountId: 'acct_a', createdAt, model: 'video-gen', endpoint: '/v1/videos', statusCode: 200,
        promptTokens: 0, completionTokens: 0, amountMicrousd: amount, billingState: 'held', taskId: `task_${id}`, heldMicrousd: amount,
        lineItems: [{ dimension: 'video_seconds_720p', quantity: 6, unit_microusd: Number(amount) / 6, amount_microusd: Number(amount) }],
      });
    const settled = held('req_settled', 300_000n, new Date('2026-11-04T10:15:00Z'));
    const refunded = held('req_refunded', 600_000n, new Date('2026-11-05T23:59:59.999Z'));
    const others = sampleRecords({ count: 50, seed: 5, start: START, days: 3 });
    const writer = writerWith(spoolFile());
    await Promise.all([settled, refunded, ...others].map((r) => writer.write(r)));
    await expectRollupsToHold(t, sumOf([settled, refunded, ...others]));

    expect(await t.db.prisma.$transaction((tx) => settleHeldCharge(tx, settled.id, 6, 3))).toBe(true);
    expect(await t.db.prisma.$transaction((tx) => settleHeldCharge(tx, settled.id, 6, 3))).toBe(false);
    expect(await t.db.prisma.$transaction((tx) => refundHeldCharge(tx, refunded.id))).toBe(true);
    expect(await t.db.prisma.$transaction((tx) => refundHeldCharge(tx, refunded.id))).toBe(false);
    await expectRollupsToHold(t, sumOf([{ ...settled, amountMicrousd: 150_000n }, { ...refunded, amountMicrousd: 0n }, ...others]));
  });

  it('follow refunds (part of a charge back to its wallet, a whole charge of an account without one) and a charge fixed by hand', async () => {
    await t.db.query(`INSERT INTO "wallets" ("account_id", "balance_microusd", "held_microusd") VALUES ('acct_a', 1000000, 500000)`, []);
    const hold = await t.db.query<{ id: string }>(
      `INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "request_id", "key_id") VALUES ('acct_a', 'hold', -500000, 'req_refunded_part', 'key_a1') RETURNING "id"::text AS "id"`,
      [],
    );
    const at = new Date('2026-11-04T12:30:00Z');
    const plain = { endpoint: '/v1/chat/completions', model: 'gpt-4.1', statusCode: 200, promptTokens: 100, completionTokens: 20, createdAt: at };
    const partly = sampleRecord({ ...plain, id: 'req_refunded_part', keyId: 'key_a1', accountId: 'acct_a', amountMicrousd: 300_000n, holdId: BigInt(hold.rows[0].id) });
    const wholly = sampleRecord({ ...plain, id: 'req_refunded_whole', keyId: 'key_b1', accountId: 'acct_b', amountMicrousd: 70_000n });
    const byHand = sampleRecord({ ...plain, id: 'req_fixed_by_hand', keyId: 'key_c1', accountId: 'acct_c', amountMicrousd: 9_000n });
    const writer = writerWith(spoolFile());
    await Promise.all([partly, wholly, byHand].map((r) => writer.write(r)));
    await expectRollupsToHold(t, sumOf([partly, wholly, byHand]));

    const ledger = new Ledger(t.db);
    expect(await ledger.refund(partly.id, 100_000n, 'part of it back', null)).toMatchObject({ kind: 'refunded' });
    expect(await ledger.refundRecord(wholly.id)).toBe(70_000n);
    expect(await ledger.refundRecord(wholly.id)).toBe(0n);
    await t.db.query('UPDATE "usage_records" SET "amount_microusd" = "amount_microusd" + 1000, "completion_tokens" = 25 WHERE "id" = $1', [byHand.id]);
    await t.db.query(`UPDATE "usage_records" SET "delivery" = 'client_gone' WHERE "id" = $1`, [byHand.id]);
    await expectRollupsToHold(t, sumOf([{ ...partly, amountMicrousd: 200_000n }, { ...wholly, amountMicrousd: 0n }, { ...byHand, amountMicrousd: 10_000n }]));
  });

  it('a change of charge that does not commit leaves the roll-ups as they were', async () => {
    const record = sampleRecord({
      id: 'req_rolled_back', keyId: 'key_b1', accountId: 'acct_b', createdAt: new Date('2026-11-04T08:00:00Z'), model: 'video-gen', endpoint: '/v1/videos',
      statusCode: 200, promptTokens: 0, completionTokens: 0, amountMicrousd: 500_000n, billingState: 'held', taskId: 'task_rb', heldMicrousd: 500_000n,
    });
    await writerWith(spoolFile()).write(record);
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await refundHeldCharge(tx, record.id);
        throw new Error('the task transition lost its race');
      }),
    ).rejects.toThrow('lost its race');
    await expectRollupsToHold(t, sumOf([record]));
  });

  it('rebuild the days whose records were written without roll-ups, and a second rebuild changes nothing', async () => {
    const records = sampleRecords({ count: 300, seed: 6, start: START, days: 5 });
    await Promise.all(records.slice(0, 200).map((r) => writerWith(spoolFile()).write(r)));
    // Records committed by a gateway that did not maintain roll-ups (an older version during an upgrade).
    const unrolled = records.slice(200);
    await insertUsageRecords(t.db, new UsageShapes(t.db), unrolled, { rollups: false });
    const found = await usageRollupDifferences(t.db, DAYS);
    expect(new Set(found.map((d) => d.day))).toEqual(new Set(unrolled.map((r) => r.createdAt.toISOString().slice(0, 10))));
    expect(new Set(found.map((d) => d.table))).toEqual(new Set(['usage_daily', 'usage_hourly', 'usage_daily_by_account', 'usage_daily_by_key']));

    expect(await rebuildUsageRollups(t.db, DAYS)).toBe(11);
    await expectRollupsToHold(t, sumOf(records));
    const snapshot = await t.db.query('SELECT * FROM "usage_daily_by_key" ORDER BY 1, 2, 3, 4, 5, 6', []);
    await rebuildUsageRollups(t.db, DAYS);
    expect(await t.db.query('SELECT * FROM "usage_daily_by_key" ORDER BY 1, 2, 3, 4, 5, 6', [])).toEqual(snapshot);
    await expectRollupsToHold(t, sumOf(records));
  });
});

describe.each(TEST_DATABASES)('the roll-ups migration (%s)', (kind) => {
  it('sums the records a deployment already has', async () => {
    const t = await openTestDatabase(kind, { empty: true });
    const before = mkdtempSync(path.join(os.tmpdir(), 'migrations-before-rollups-'));
    try {
      for (const name of readdirSync(defaultMigrationsDir()).filter((n) => n < ROLLUPS_MIGRATION)) {
        cpSync(path.join(defaultMigrationsDir(), name), path.join(before, name), { recursive: true });
      }
      await migrate(t.db, before);
      await insertSampleKeys(t.db);
      const records = sampleRecords({ count: 400, seed: 7, start: START, days: 6 });
      await insertUsageRecords(t.db, new UsageShapes(t.db), records, { rollups: false });

      expect((await migrate(t.db)).applied).toContain(ROLLUPS_MIGRATION);
      await expectRollupsToHold(t, sumOf(records));
    } finally {
      rmSync(before, { recursive: true, force: true });
      await t.close();
    }
  });
});
