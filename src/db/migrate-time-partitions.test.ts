import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ledger } from '../billing/ledger';
import { toUsageRecordView } from '../billing/usage-record-view';
import { UsageShapes } from '../billing/usage-shapes';
import { createTestDatabase } from '../../test/support/postgres-database';
import { TEST_DATABASES } from '../../test/support/test-gateway';
import { openDatabase, type Database } from './database';
import { defaultMigrationsDir, migrate } from './migrate';
import { TimePartitions } from './time-partitions';

const PARTITIONING = '20261202000000_time_partitions';
const DAY_MS = 24 * 3600_000;

/** Usage records as the gateway wrote them before: every JSON part whole in the row. */
function recordsBefore(now: Date) {
  const base = {
    key_id: 'key_old', account_id: 'acct_default', status_code: 200, currency: 'USD', pricing_version: 1, error_code: null, billing_state: 'final',
    task_id: null, held_microusd: null, settled_at: null, delivery: null, hold_id: null, parent_key_id: null, search: null, decision: null, mcp: null,
    routing: { status_code: 200, total_duration_ms: 11, ttft_ms: null, was_streaming: false },
  };
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS).toISOString();
  return [
    {
      ...base, id: 'req_28df73e5714f43de91087d54d345edcd', created_at: at(70), model: 'gpt-4.1-mini', endpoint: '/v1/chat/completions',
      prompt_tokens: 11, completion_tokens: 66, total_tokens: 77, amount_microusd: 110, log_id: 'log_28df73e5714f43de91087d54d345edcd',
      measurement: { input: 'provider', output: 'provider' },
      dimensions: [{ name: 'input', unit: 'tokens', quantity: 11 }, { name: 'cache_read', unit: 'tokens', quantity: 0 }, { name: 'output', unit: 'tokens', quantity: 66 }],
      line_items: [
        { dimension: 'input', quantity: 11, unit_microusd: 0.4, amount_microusd: 4 }, { dimension: 'cache_read', quantity: 0, unit_microusd: 0.1, amount_microusd: 0 },
        { dimension: 'output', quantity: 66, unit_microusd: 1.6, amount_microusd: 106 },
        // Two refunds, as gateway_refund appended them.
        { dimension: 'refund', quantity: 1, unit_microusd: -30, amount_microusd: -30 }, { dimension: 'refund', quantity: 1, unit_microusd: -50, amount_microusd: -50 },
      ],
      provider_usage: { family: 'openai', raw_fields: { total_tokens: 77, prompt_tokens: 11, completion_tokens: 66, prompt_tokens_details: { audio_tokens: 0, cached_tokens: 0 } } },
      served_by: { lane: 'standard', attempts: 1, provider: 'openai', upstream_model: 'gpt-4.1-mini' },
    },
    {
      ...base, id: 'req_0f11c3189620409cb09e09563de31187', created_at: at(1), model: 'gemini-2.5-flash', endpoint: '/v1/chat/completions',
      prompt_tokens: 5, completion_tokens: 394, total_tokens: 399, amount_microusd: 988, log_id: 'log_0f11c3189620409cb09e09563de31187',
      measurement: { input: 'provider', output: 'provider', reasoning: 'local_estimate' },
      dimensions: [{ name: 'input', unit: 'tokens', quantity: 5 }, { name: 'output', unit: 'tokens', quantity: 67 }, { name: 'reasoning', unit: 'tokens', quantity: 327 }],
      line_items: [{ dimension: 'input', quantity: 5, unit_microusd: 0.3, amount_microusd: 2 }, { dimension: 'output', quantity: 67, unit_microusd: 2.5, amount_microusd: 168 }, { dimension: 'reasoning', quantity: 327, unit_microusd: 2.5, amount_microusd: 818 }],
      routing: { status_code: 200, total_duration_ms: 6, ttft_ms: 4, was_streaming: true },
      provider_usage: { family: 'gemini', raw_fields: { totalTokenCount: 399, promptTokenCount: 5, thoughtsTokenCount: 327, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 5 }], candidatesTokenCount: 67, '1': 'a key that looks like a number' } },
      served_by: { lane: 'standard', attempts: 2, provider: 'gemini', upstream_model: 'gemini-2.5-flash' },
    },
    {
      ...base, id: 'req_a1b2c3d4e5f60718293a4b5c6d7e8f90', created_at: at(35), model: 'search:auto', endpoint: '/v1/search',
      prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, amount_microusd: 8000, log_id: 'log_a1b2c3d4e5f60718293a4b5c6d7e8f90',
      measurement: { input: 'unavailable', output: 'unavailable' },
      dimensions: [{ name: 'web_search', unit: 'units', quantity: 1 }],
      line_items: [{ dimension: 'web_search', quantity: 1, unit_microusd: 8000, amount_microusd: 8000 }],
      provider_usage: { family: 'tavily', raw_fields: { billable_units: 1 } },
      served_by: { lane: 'web_search', attempts: 1, provider: 'tavily', upstream_model: 'tavily' },
      search: {
        backend: 'tavily', web_search_requests: 1, web_search_billable_units: 1,
        route_receipt: { selection: 'auto', selected_backend: 'tavily', chose_provider: 'tavily', candidates: ['tavily', 'serper'], rejected: [{ backend: 'brave', provider: 'brave', reason: 'not configured' }], downgraded: false, fallback_count: 0, decision_reason: 'auto; tavily is first in the configured order' },
      },
    },
    {
      ...base, id: 'req_7e94dda4ab98406781a7b5e791579460', created_at: at(35), model: 'gpt-4.1-mini', endpoint: '/v1/decisions',
      prompt_tokens: 350, completion_tokens: 215, total_tokens: 565, amount_microusd: 484, log_id: 'log_7e94dda4ab98406781a7b5e791579460',
      measurement: { input: 'provider', output: 'provider' }, dimensions: [{ name: 'input', unit: 'tokens', quantity: 350 }],
      line_items: [{ dimension: 'input', quantity: 350, unit_microusd: 0.4, amount_microusd: 140 }],
      provider_usage: { family: 'openai', raw_fields: { prompt_tokens: 350 } },
      served_by: { lane: 'standard', attempts: 1, provider: 'openai', upstream_model: 'gpt-4.1-mini' },
      decision: { stage: 'question_generation', prompt_version: 'decision-questions-1', linked_request_id: 'req_f0ec9183356041eaa02f3afb64bebd4e' },
    },
    {
      ...base, id: 'req_c0ffee00c0ffee00c0ffee00c0ffee00', created_at: at(2), model: 'gen-imagine-video', endpoint: '/v1/videos', billing_state: 'held',
      task_id: 'video_1', held_microusd: 300000, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, amount_microusd: 300000, log_id: 'log_c0ffee00c0ffee00c0ffee00c0ffee00',
      measurement: { input: 'unavailable', output: 'local_estimate' }, dimensions: [{ name: 'video_seconds_480p', unit: 'seconds', quantity: 6 }],
      line_items: [{ dimension: 'video_seconds_480p', quantity: 6, unit_microusd: 50000, amount_microusd: 300000 }],
      provider_usage: { family: 'xai', raw_fields: {} }, served_by: { lane: 'standard', attempts: 1, provider: 'xai', upstream_model: 'grok-imagine-video' },
    },
    {
      ...base, id: 'req_0123456789abcdef0123456789abcdef', created_at: at(3), model: 'mcp:docs', endpoint: '/mcp',
      prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, amount_microusd: 0, log_id: 'log_0123456789abcdef0123456789abcdef',
      measurement: { input: 'unavailable', output: 'unavailable' }, dimensions: [], line_items: [],
      provider_usage: { family: 'mcp', raw_fields: {} }, served_by: null, mcp: { server: 'docs', tool: 'search_docs', outcome: 'tool_error' },
    },
    {
      ...base, id: 'req_deadbeefdeadbeefdeadbeefdeadbeef', created_at: at(0), model: 'no-such-model', endpoint: '/v1/chat/completions', status_code: 404, error_code: 'model_not_found',
      prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, amount_microusd: 0, log_id: 'log_deadbeefdeadbeefdeadbeefdeadbeef',
      measurement: null, dimensions: [], line_items: [], routing: null, provider_usage: { family: 'none', raw_fields: {} }, served_by: null,
    },
  ];
}

/**
 * The partitioning migration on a database that already has usage records,
 * ledger entries and stored responses: every row is kept, each in its
 * month's partition; a usage record reads exactly as before (its public
 * view from its JSON parts, now its shape and figures); the ledger's ids go
 * on from the same sequence, so its cursor keeps its order.
 */
describe.each(TEST_DATABASES)('the partitioning migration on a database with rows (%s)', (database) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  const now = new Date();
  const before = recordsBefore(now);

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'partitioning-migration-'));
    const pg = database === 'postgres' ? await createTestDatabase({ empty: true }) : undefined;
    db = await openDatabase({ databaseUrl: pg?.url, dataDir: path.join(dir, 'pglite') });
    cleanup = async () => {
      await db.close();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    };
    const older = path.join(dir, 'migrations');
    for (const name of readdirSync(defaultMigrationsDir()).filter((n) => n < PARTITIONING)) cpSync(path.join(defaultMigrationsDir(), name), path.join(older, name), { recursive: true });
    await migrate(db, older);

    await db.query('INSERT INTO "usage_records" SELECT * FROM json_populate_recordset(NULL::"usage_records", $1::json)', [JSON.stringify(before)]);
    await db.query(`INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "created_at")
      SELECT 'acct_default', x.kind, x.amount, x.charged, x.hold, 'req_28df73e5714f43de91087d54d345edcd', now() - x.days * interval '1 day'
      FROM (VALUES ('top_up', 1000000, 0, NULL::bigint, 70), ('hold', -500, 0, NULL, 70), ('settle', 390, 110, 2, 70), ('refund', 30, -30, 2, 1), ('refund', 50, -50, 2, 0))
        AS x(kind, amount, charged, hold, days)`, []);
    await db.query(`INSERT INTO "stored_responses" ("id", "created_at", "expires_at", "key_id", "account_id", "previous_response_id", "provider", "input", "response")
      VALUES ('resp_1', now() - interval '40 days', now() - interval '10 days', 'key_old', 'acct_default', NULL, 'openai', '"hi"', '{"id": "resp_1"}'),
             ('resp_2', now(), now() + interval '30 days', 'key_old', 'acct_default', 'resp_1', 'openai', '[{"role": "user", "content": "again"}]', '{"id": "resp_2"}')`, []);

    expect((await migrate(db)).applied).toContain(PARTITIONING);
  }, 120_000);
  afterAll(() => cleanup?.());

  it('keeps every usage record, each reading as it did: the same figures, line items (refunds too) and parts', async () => {
    const rows = await db.prisma.usageRecord.findMany({ orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.id)).toEqual(before.map((r) => r.id).sort());
    const parts = await new UsageShapes(db).partsOf(rows);
    for (const [i, row] of rows.entries()) {
      const old = before.find((r) => r.id === row.id)!;
      const view = toUsageRecordView(row, parts[i]!);
      expect(view).toEqual({
        object: 'usage.request', id: old.id, created_at: Math.floor(Date.parse(old.created_at) / 1000), model: old.model, endpoint: old.endpoint,
        usage: { prompt_tokens: old.prompt_tokens, completion_tokens: old.completion_tokens, total_tokens: old.total_tokens, measurement: old.measurement, dimensions: old.dimensions },
        billing: {
          currency: 'USD', amount_microusd: old.amount_microusd, pricing_version: 1, line_items: old.line_items, state: old.billing_state,
          ...(old.held_microusd !== null ? { held_microusd: old.held_microusd, settled_at: null } : {}),
        },
        routing: old.routing, delivery: old.routing ? 'sent' : null, provider_usage: old.provider_usage, log_id: old.log_id,
        ...(old.search ? { search: old.search } : {}), ...(old.decision ? { decision: old.decision } : {}), ...(old.mcp ? { mcp: old.mcp } : {}),
      });
      expect(parts[i]!.served_by).toEqual(old.served_by);
    }
    const { rows: left } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM "usage_records_default"', []);
    expect(left[0]!.n).toBe(0);
  });

  it('puts each row in its month\'s partition, and has this month and the next two ready', async () => {
    const months = new Set(before.map((r) => r.created_at.slice(0, 7).replace('-', '_')));
    const partitions = new TimePartitions(db);
    const usage = (await partitions.list('usage_records')).map((p) => p.name);
    for (const month of months) expect(usage).toContain(`usage_records_${month}`);
    expect(await partitions.prepare(now)).toEqual([]);
    const { rows } = await db.query<{ p: string }>('SELECT DISTINCT tableoid::regclass::text AS p FROM "ledger_entries" ORDER BY 1', []);
    expect(rows.map((r) => r.p).every((p) => /^ledger_entries_\d{4}_\d{2}$/.test(p))).toBe(true);
  });

  it('keeps the ledger, its ids going on from the same sequence so that its cursor pages in order', async () => {
    const ledger = new Ledger(db);
    const first = await ledger.page('acct_default', 3, null);
    expect(first.items.map((e) => e.kind)).toEqual(['refund', 'refund', 'settle']);
    const rest = await ledger.page('acct_default', 3, first.items.at(-1)!.id);
    expect(rest.items.map((e) => [e.id, e.kind])).toEqual([['2', 'hold'], ['1', 'top_up']]);
    const { rows } = await db.query<{ id: string }>(`INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd") VALUES ('acct_default', 'adjustment', 1) RETURNING "id"::text`, []);
    expect(rows[0]!.id).toBe('6');
    expect((await ledger.page('acct_default', 1, null)).items[0]!.id).toBe('6');
  });

  it('keeps the stored responses', async () => {
    const { rows } = await db.query<{ id: string; previous_response_id: string | null; input: unknown }>('SELECT "id", "previous_response_id", "input" FROM "stored_responses" ORDER BY "id"', []);
    expect(rows).toEqual([{ id: 'resp_1', previous_response_id: null, input: 'hi' }, { id: 'resp_2', previous_response_id: 'resp_1', input: [{ role: 'user', content: 'again' }] }]);
  });
});
