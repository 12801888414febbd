import OpenAI from 'openai';
import type { UsageRecordRow } from '../../src/billing/usage-record';
import { openDatabase, type Database } from '../../src/db/database';
import { TIME_PARTITIONED_TABLES, TimePartitions } from '../../src/db/time-partitions';
import { newRequestId } from '../../src/http/request-id';
import { PartitionKeeper } from '../../src/jobs/partition-keeper';
import { ResponseSweeper } from '../../src/jobs/response-sweeper';
import { silentLogger } from '../../src/observability/logger';
import { readUntil } from '../support/eventually';
import { ADMIN_TOKEN, fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { chatRecordRow } from '../support/usage-record-row';

const DAY_MS = 24 * 3600_000;

/** The first instant of the UTC month `months` after `at`'s. */
const monthStart = (at: Date, months = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
const monthName = (table: string, at: Date) => `${table}_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;

/**
 * The month partitions of usage records, the ledger and stored responses:
 * made ahead (by any number of instances at once), records on both sides
 * of a month's end found by id and in totals and written exactly once,
 * whole months dropped past their retention (after moving what the default
 * partition caught into its month), the ledger's sums carried in
 * checkpoints so that the reconcile stays exact.
 */
describe.each(TEST_DATABASES)('month partitions (%s)', (database) => {
  let t: TestGateway;
  let db: Database;
  let key: string;
  let principal: { keyId: string; accountId: string };

  beforeAll(async () => {
    t = await startTestGateway({ database });
    db = t.gateway.db;
    key = await t.createKey({ name: 'partitions' });
    principal = (await t.gateway.services.keys.authenticate(key))!;
  });
  afterAll(() => t?.close());

  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const partitionsOf = async (table: string, id: string) =>
    (await db.query<{ p: string }>(`SELECT tableoid::regclass::text AS p FROM "${table}" WHERE "id" = $1`, [id])).rows.map((r) => r.p);
  const write = (id: string, createdAt: Date, fields: Partial<UsageRecordRow> & { amount?: bigint } = {}) =>
    t.gateway.services.writer.write(chatRecordRow({ id, createdAt, ...principal, ...fields }));
  const keeper = (retention: ConstructorParameters<typeof PartitionKeeper>[1]) => new PartitionKeeper(t.gateway.services.partitions, retention, silentLogger);

  it('has this month and the next two made ahead for every table; two instances making the same months at once make each once', async () => {
    const now = new Date();
    for (const table of TIME_PARTITIONED_TABLES) {
      const names = (await t.gateway.services.partitions.list(table)).map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining([0, 1, 2].map((m) => monthName(table, monthStart(now, m)))));
    }
    expect(await t.gateway.services.partitions.prepare(now)).toEqual([]);

    // A year on: both instances find the months missing and race to make them.
    const later = new Date(monthStart(now, 12).getTime() + 5 * DAY_MS);
    const other = database === 'postgres' ? await openDatabase({ databaseUrl: t.databaseUrl!, dataDir: '' }) : db;
    try {
      const [one, two] = await Promise.all([t.gateway.services.partitions.prepare(later), new TimePartitions(other).prepare(later)]);
      const expected = TIME_PARTITIONED_TABLES.flatMap((table) => [12, 13, 14].map((m) => monthName(table, monthStart(now, m))));
      expect([...one, ...two].sort()).toEqual(expected.sort());
    } finally {
      if (other !== db) await other.close();
    }
  });

  it('finds records on both sides of a month\'s end by id and in totals, and writes a retried one once', async () => {
    const boundary = monthStart(new Date(), 2);
    const before = new Date(boundary.getTime() - 1);
    const [lastOfMonth, firstOfNext] = [newRequestId(before), newRequestId(boundary)];
    await Promise.all([write(lastOfMonth, before, { amount: 1_000n }), write(firstOfNext, boundary, { amount: 2_000n })]);

    expect(await partitionsOf('usage_records', lastOfMonth)).toEqual([monthName('usage_records', monthStart(new Date(), 1))]);
    expect(await partitionsOf('usage_records', firstOfNext)).toEqual([monthName('usage_records', boundary)]);
    for (const [id, at, amount] of [[lastOfMonth, before, 1_000], [firstOfNext, boundary, 2_000]] as const) {
      const { status, body } = await fetchUsageRecord(t, key, id);
      expect([status, body.id, body.created_at, body.billing.amount_microusd]).toEqual([200, id, Math.floor(at.getTime() / 1000), amount]);
    }
    const totals = async () => {
      const q = new URLSearchParams({ group_by: 'model', from: new Date(boundary.getTime() - 3600_000).toISOString(), to: new Date(boundary.getTime() + 3600_000).toISOString() });
      const res = await fetch(`${t.url}/api/usage/totals?${q}`, { headers: { authorization: `Bearer ${key}` } });
      return ((await res.json()) as { total: { requests: number; amount_microusd: number } }).total;
    };
    expect(await totals()).toMatchObject({ requests: 2, amount_microusd: 3_000 });

    // A retry of the same records (an instance that died after their commit, before it knew): nothing written twice.
    await Promise.all([write(lastOfMonth, before, { amount: 1_000n }), write(firstOfNext, boundary, { amount: 2_000n })]);
    await t.gateway.services.writer.replaySpool();
    expect(await totals()).toMatchObject({ requests: 2, amount_microusd: 3_000 });
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM "usage_records" WHERE "id" IN ($1, $2)', [lastOfMonth, firstOfNext]);
    expect(rows[0]!.n).toBe(2);
  });

  it('drops whole usage months past the retention, after moving what the default partition caught, and keeps a month with a held charge', async () => {
    const now = new Date();
    const oldAt = new Date(now.getTime() - 100 * DAY_MS);
    const heldAt = new Date(now.getTime() - 65 * DAY_MS);
    const [old, held, recent] = [newRequestId(oldAt), newRequestId(heldAt), newRequestId(now)];
    await Promise.all([
      write(old, oldAt),
      write(held, heldAt, { billingState: 'held', taskId: 'video_partition_test', heldMicrousd: 37n }),
      write(recent, now),
    ]);
    // No partition for those months: the default one took them.
    expect(await partitionsOf('usage_records', old)).toEqual(['usage_records_default']);
    expect(await partitionsOf('usage_records', held)).toEqual(['usage_records_default']);

    expect(await keeper({ usage_records: 30 }).round()).toEqual([monthName('usage_records', oldAt)]);
    expect((await fetchUsageRecord(t, key, old)).status).toBe(404);
    expect(await partitionsOf('usage_records', held)).toEqual([monthName('usage_records', heldAt)]);
    expect((await fetchUsageRecord(t, key, held)).body.billing.state).toBe('held');
    expect((await fetchUsageRecord(t, key, recent)).status).toBe(200);
    const { rows: drops } = await db.query<{ partition: string; rows: string }>(`SELECT "partition", "rows"::text FROM "dropped_partitions" WHERE "table_name" = 'usage_records'`, []);
    expect(drops).toEqual([{ partition: monthName('usage_records', oldAt), rows: '1' }]);

    // Once the task's charge is settled, its month goes too.
    await db.query(`UPDATE "usage_records" SET "billing_state" = 'settled' WHERE "id" = $1`, [held]);
    expect(await keeper({ usage_records: 30 }).round()).toEqual([monthName('usage_records', heldAt)]);
    expect((await fetchUsageRecord(t, key, held)).status).toBe(404);
    expect((await fetchUsageRecord(t, key, recent)).status).toBe(200);
    // A keeper without retention drops nothing.
    expect(await keeper({}).round()).toEqual([]);
  });

  it('drops months of stored responses whose every response expired, and sweeps the expired ones of later months row by row', async () => {
    const now = new Date();
    const insert = (id: string, createdAt: Date, expiresAt: Date) => db.query(
      `INSERT INTO "stored_responses" ("id", "created_at", "expires_at", "key_id", "account_id", "provider", "input", "response") VALUES ($1, $2, $3, $4, $5, 'openai', '"hi"', '{}')`,
      [id, createdAt, expiresAt, principal.keyId, principal.accountId],
    );
    const oldAt = new Date(now.getTime() - 100 * DAY_MS);
    await insert('resp_old', oldAt, new Date(oldAt.getTime() + 30 * DAY_MS));
    // This month's: its partition is kept, the response swept alone.
    await insert('resp_expired_today', now, new Date(now.getTime() - 60_000));
    await insert('resp_kept', now, new Date(now.getTime() + 30 * DAY_MS));
    await t.gateway.services.partitions.prepare(now);
    expect(await partitionsOf('stored_responses', 'resp_old')).toEqual([monthName('stored_responses', oldAt)]);

    expect(await new ResponseSweeper(t.gateway.services.storedResponses.store, silentLogger).sweep()).toBe(1);
    const { rows } = await db.query<{ id: string }>('SELECT "id" FROM "stored_responses" ORDER BY "id"', []);
    expect(rows.map((r) => r.id)).toEqual(['resp_kept']);
    const partitions = (await t.gateway.services.partitions.list('stored_responses')).map((p) => p.name);
    expect(partitions).not.toContain(monthName('stored_responses', oldAt));
  });

  it('keeps the reconcile exact after a ledger month is dropped: its sums per account and budget are in the checkpoints', async () => {
    const acct = (await admin('/api/admin/accounts', 'POST', { name: 'ledger-retention' })).body.id as string;
    const made = (await admin('/api/admin/keys', 'POST', { name: 'ledger-retention-key', account_id: acct })).body;
    const client = new OpenAI({ apiKey: made.key, baseURL: t.baseURL, maxRetries: 0 });
    expect((await admin(`/api/admin/accounts/${acct}/wallet/top-ups`, 'POST', { amount_microusd: 1_000_000 })).status).toBe(201);
    expect((await admin(`/api/admin/accounts/${acct}/budgets`, 'POST', { scope: 'account', period: 'total', limit_microusd: 900_000, mode: 'hard' })).status).toBe(201);
    const call = async () => {
      const { response } = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello' }], max_tokens: 20 }).withResponse();
      const id = response.headers.get('x-svc-request-id')!;
      await readUntil(async () => (await fetchUsageRecord(t, made.key, id)).status, (s) => s === 200, `the record of ${id}`);
      return id;
    };
    const reconciled = async () => {
      const report = (await admin(`/api/admin/reconcile?account_id=${acct}`)).body;
      return { ok: report.ok, failing: report.checks.filter((c: { ok: boolean }) => !c.ok) };
    };
    const first = await call();
    await call();
    // The first call and the top-up as if made 100 days ago: their ledger month (and the record's) is past a 30-day retention.
    const past = new Date(Date.now() - 100 * DAY_MS);
    await db.query(`UPDATE "ledger_entries" SET "created_at" = $2 WHERE "account_id" = $1 AND ("request_id" = $3 OR "kind" = 'top_up')`, [acct, past, first]);
    await db.query('UPDATE "usage_records" SET "created_at" = $2 WHERE "id" = $1', [first, past]);
    expect(await reconciled()).toEqual({ ok: true, failing: [] });
    const moved = (await db.query<{ n: number; amount: string }>('SELECT count(*)::int AS n, sum("amount_microusd")::text AS amount FROM "ledger_entries" WHERE "account_id" = $1 AND "created_at" < $2', [acct, new Date(Date.now() - 30 * DAY_MS)])).rows[0]!;
    expect(moved.n).toBe(3);

    // A month with a hold not ended yet is kept.
    await db.query(`INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "created_at") VALUES ($1, 'hold', -5, $2)`, [acct, past]);
    await t.gateway.services.partitions.prepare(new Date());
    expect(await keeper({ ledger_entries: 30 }).round()).toEqual([]);
    await db.query(`DELETE FROM "ledger_entries" WHERE "account_id" = $1 AND "kind" = 'hold' AND "amount_microusd" = -5`, [acct]);
    // And so is a month with a lease still open.
    const { rows: [lease] } = await db.query<{ id: string }>(
      `INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "created_at") VALUES ($1, 'lease', -7, $2) RETURNING "id"::text`, [acct, past],
    );
    await db.query(`INSERT INTO "spend_leases" ("id", "account_id", "holder", "granted_microusd", "expires_at") VALUES ($1, $2, 'test', 7, now())`, [lease!.id, acct]);
    expect(await keeper({ ledger_entries: 30 }).round()).toEqual([]);
    await db.query('DELETE FROM "spend_leases" WHERE "id" = $1', [lease!.id]);
    await db.query('DELETE FROM "ledger_entries" WHERE "id" = $1', [lease!.id]);

    expect(await keeper({ ledger_entries: 30 }).round()).toEqual([monthName('ledger_entries', past)]);
    const { rows: checkpoints } = await db.query<{ entries: string; amount: string }>(
      'SELECT "entries"::text AS entries, "amount_microusd"::text AS amount FROM "ledger_checkpoints" WHERE "account_id" = $1', [acct],
    );
    expect(checkpoints).toEqual([{ entries: '3', amount: moved.amount }]);
    const { rows: budgetCheckpoints } = await db.query<{ spent: string }>('SELECT "spent_microusd"::text AS spent FROM "budget_checkpoints"', []);
    expect(budgetCheckpoints).toEqual([{ spent: String(-Number(moved.amount) + 1_000_000) }]);
    expect((await admin(`/api/admin/accounts/${acct}/ledger`)).body.data.some((e: { request_id: string | null }) => e.request_id === first)).toBe(false);
    expect(await reconciled()).toEqual({ ok: true, failing: [] });
    await call();
    expect(await reconciled()).toEqual({ ok: true, failing: [] });
  });
});
