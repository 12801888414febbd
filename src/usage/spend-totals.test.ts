import path from 'node:path';
import { refundHeldCharge, settleHeldCharge } from '../billing/task-billing';
import { UsageSpool } from '../billing/usage-spool';
import { UsageWriter } from '../billing/usage-writer';
import { silentLogger } from '../observability/logger';
import { GatewayMetrics } from '../observability/metrics';
import { openTestDatabase, type OpenedTestDatabase } from '../../test/support/database-of-kind';
import { rawSpendTotals } from '../../test/support/raw-spend-totals';
import { TEST_DATABASES } from '../../test/support/test-gateway';
import { insertSampleKeys, SAMPLE_KEYS, sampleRecord, sampleRecords, seededRandom } from '../../test/support/usage-record-samples';
import { ACCOUNT_SPEND_GROUPS, ALL_ACCOUNTS_SPEND_GROUPS, KEY_SPEND_GROUPS, MAX_SPEND_GROUPS, type SpendGroup } from './spend-groups';
import type { SpendRange } from './spend-range';
import { SpendTotals, type SpendScope, type SpendTotalsView } from './spend-totals';

const START = Date.UTC(2026, 10, 3);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Rows as comparable strings, whatever their order: groupings and figures. */
function rowsOf(view: SpendTotalsView): string[] {
  return view.data
    .map((row) => JSON.stringify([view.group_by.map((g) => row[g] ?? null), row.requests, row.prompt_tokens, row.completion_tokens, row.amount_microusd]))
    .sort();
}

async function referenceRows(t: OpenedTestDatabase, scope: SpendScope, groupBy: SpendGroup[], range: SpendRange): Promise<string[]> {
  const raw = await rawSpendTotals(t.db, scope, groupBy, range);
  return raw.map((row) => JSON.stringify([groupBy.map((g) => row.groups[g]), row.requests, row.prompt_tokens, row.completion_tokens, row.amount_microusd])).sort();
}

/** A bound on a whole day, a whole hour, or any millisecond, so every kind of range end comes up. */
function randomInstant(random: () => number): number {
  const at = START - DAY + Math.floor(random() * 7 * DAY);
  const kind = random();
  return kind < 0.3 ? Math.floor(at / DAY) * DAY : kind < 0.6 ? Math.floor(at / HOUR) * HOUR : at;
}

function randomGroups(random: () => number, allowed: readonly SpendGroup[]): SpendGroup[] {
  const pool = [...allowed];
  const count = 1 + Math.floor(random() * MAX_SPEND_GROUPS);
  return Array.from({ length: count }, () => pool.splice(Math.floor(random() * pool.length), 1)[0]);
}

describe.each(TEST_DATABASES)('spend totals from roll-ups (%s)', (kind) => {
  let t: OpenedTestDatabase;
  let totals: SpendTotals;

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    await insertSampleKeys(t.db);
    const spool = new UsageSpool(path.join(t.dir, 'spool.jsonl'));
    const writer = new UsageWriter(t.db, spool, silentLogger, new GatewayMetrics());
    const records = sampleRecords({ count: 1500, seed: 11, start: new Date(START), days: 5 });
    await Promise.all(records.slice(0, 1400).map((r) => writer.write(r)));
    // A batch that fails midway (one record refused: the others go in one by one, it to the spool), then the replay.
    await t.db.execScript(`
      CREATE FUNCTION "test_refuse_record"() RETURNS trigger AS $$
      BEGIN
        IF NEW."id" = '${records[1450].id}' THEN RAISE EXCEPTION 'refused (test)' USING ERRCODE = '23514'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER "test_refuse_record" BEFORE INSERT ON "usage_records" FOR EACH ROW EXECUTE FUNCTION "test_refuse_record"();`);
    await Promise.all(records.slice(1400).map((r) => writer.write(r)));
    await t.db.execScript('DROP TRIGGER "test_refuse_record" ON "usage_records"');
    expect(await writer.replaySpool()).toBe(1);
    // Duplicates: written again and replayed, never counted again.
    await Promise.all(records.slice(0, 100).map((r) => writer.write(r)));
    await spool.append(records.slice(50, 150));
    await writer.replaySpool();
    // Held video charges, one settled for half of what was held and one refunded.
    const held = ['req_video_1', 'req_video_2'].map((id, i) =>
      sampleRecord({
        id, keyId: SAMPLE_KEYS[i].id, accountId: SAMPLE_KEYS[i].accountId, createdAt: new Date(START + (i + 1) * DAY + 7 * HOUR + 123), model: 'video-gen',
        endpoint: '/v1/videos', statusCode: 200, promptTokens: 0, completionTokens: 0, amountMicrousd: 600_000n, billingState: 'held', taskId: `task_${id}`,
        heldMicrousd: 600_000n, lineItems: [{ dimension: 'video_seconds_720p', quantity: 6, unit_microusd: 100_000, amount_microusd: 600_000 }] as never,
      }),
    );
    await Promise.all(held.map((r) => writer.write(r)));
    await t.db.prisma.$transaction((tx) => settleHeldCharge(tx, held[0].id, 6, 3));
    await t.db.prisma.$transaction((tx) => refundHeldCharge(tx, held[1].id));
    totals = new SpendTotals(t.db);
  });
  afterAll(() => t?.close());

  it("equal the records' own sums over random ranges, scopes and groupings", async () => {
    const random = seededRandom(42);
    const scopes: Array<[SpendScope, readonly SpendGroup[]]> = [
      ...SAMPLE_KEYS.slice(0, 3).map((k): [SpendScope, readonly SpendGroup[]] => [{ keyId: k.id }, KEY_SPEND_GROUPS]),
      [{ accountId: 'acct_a' }, ACCOUNT_SPEND_GROUPS],
      [{ accountId: 'acct_b' }, ACCOUNT_SPEND_GROUPS],
      ['all_accounts', ALL_ACCOUNTS_SPEND_GROUPS],
    ];
    let nonEmpty = 0;
    for (let i = 0; i < 150; i++) {
      const [scope, allowed] = scopes[i % scopes.length];
      const groupBy = randomGroups(random, allowed);
      const [a, b] = [randomInstant(random), randomInstant(random)].sort((x, y) => x - y);
      const range = { from: new Date(a), to: new Date(b === a ? a + 1 + Math.floor(random() * HOUR) : b) };
      const view = await totals.totals(scope, groupBy, range);
      const expected = await referenceRows(t, scope, groupBy, range);
      expect({ scope, groupBy, from: range.from.toISOString(), to: range.to.toISOString(), rows: rowsOf(view) }).toEqual({
        scope, groupBy, from: range.from.toISOString(), to: range.to.toISOString(), rows: expected,
      });
      if (expected.length) nonEmpty++;
    }
    // The ranges found records most of the time: the comparison was not of empty lists.
    expect(nonEmpty).toBeGreaterThan(100);
  });

  it('sorts by day, then model, then the other groupings, and totals every row', async () => {
    const view = await totals.totals('all_accounts', ['endpoint', 'model', 'day'], { from: new Date(START), to: new Date(START + 5 * DAY) });
    const order = view.data.map((row) => `${row.day} ${row.model} ${row.endpoint}`);
    expect(order).toEqual([...order].sort());
    expect(view.total.requests).toBe(1502);
    expect(view.total.amount_microusd).toBe(view.data.reduce((a, row) => a + row.amount_microusd, 0));
  });

  it("has an index to read the minutes at the ends of every account's range by time, not the whole table", async () => {
    // Partitioned or not, the records must keep an index led by created_at (the BRIN index of the migrations).
    const { rows } = await t.db.query<{ name: string }>(
      `SELECT c."relname" AS "name" FROM "pg_index" i JOIN "pg_class" c ON c."oid" = i."indexrelid"
       JOIN "pg_attribute" a ON a."attrelid" = i."indrelid" AND a."attnum" = i."indkey"[0]
       WHERE i."indrelid" = '"usage_records"'::regclass AND a."attname" = 'created_at'`,
      [],
    );
    expect(rows.length).toBeGreaterThan(0);
  });

  it('keeps the sums of whole days after their records are dropped (as old partitions are)', async () => {
    const day = { from: new Date(START + DAY), to: new Date(START + 2 * DAY) };
    const before = await totals.totals({ accountId: 'acct_a' }, ['model', 'day'], day);
    expect(before.total.requests).toBeGreaterThan(0);
    await t.db.query('DELETE FROM "usage_records" WHERE "created_at" >= $1 AND "created_at" < $2', [day.from, day.to]);
    expect(await totals.totals({ accountId: 'acct_a' }, ['model', 'day'], day)).toEqual(before);
  });
});
