import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usageRollupDifferences } from '../src/billing/usage-rollup-check';
import { rebuildUsageRollups } from '../src/billing/usage-rollup-rebuild';
import { openDatabase } from '../src/db/database';
import { defaultMigrationsDir, migrate } from '../src/db/migrate';
import { hashKeySecret, newKeySecret } from '../src/keys/key-secret';
import type { SpendGroup } from '../src/usage/spend-groups';
import type { SpendRange } from '../src/usage/spend-range';
import { SpendTotals, type SpendScope, type SpendTotalsView } from '../src/usage/spend-totals';
import { rawSpendTotals } from '../test/support/raw-spend-totals';
import { onCleanup, runCleanups } from './cleanup';
import { adminUrl, withClient, withDatabase } from './postgres';
import { killAllChildren, startGatewayProcess, startSimulatorProcess } from './processes';
import { progress, progressLabel } from './progress';
import { summarize } from './stats';
import { fmt, renderTable, type Column, type Row } from './table';
import { simulatorProviderEnv } from './upstream';
import { seedAccountId, seedKeyId, seedKeys, seedUsageRecords, type UsageSeed } from './usage-seed';

/**
 * `npm run bench:rollups`: spend totals over a large history, read from the
 * roll-ups. Seeds a PostgreSQL database of its own with usage records
 * (10 million over 90 days by default, INSERT … SELECT generate_series, in
 * time order), as a deployment upgrading would have them, then applies the
 * roll-ups migration (its backfill, timed), rebuilds every day with the
 * `rollups rebuild` code (timed), checks a week of roll-ups against the
 * records, and measures the dashboard queries: at the service function
 * (SpendTotals.totals, in this process) and through the HTTP API of a
 * gateway process (admin and key routes), medians of several runs. Each
 * query's answer is compared once with the records' own sums (the GROUP BY
 * over every record that totals ran before roll-ups, also timed).
 * The table goes to stdout, progress to stderr.
 *
 * Environment (all optional):
 *   BENCH_ROLLUP_RECORDS=10000000  usage records seeded
 *   BENCH_ROLLUP_DAYS=90           days they span, up to now
 *   BENCH_ROLLUP_ACCOUNTS=1000     accounts
 *   BENCH_ROLLUP_KEYS=10000        keys (key k in account k % accounts)
 *   BENCH_ROLLUP_RUNS=15           measured runs per query (after 3 warm-up runs)
 *   BENCH_ROLLUP_REBUILD=1         also time `rollups rebuild` over every day (0: skip it)
 *   BENCH_ROLLUP_DATABASE=name     measure an already seeded database of this server instead (kept)
 *   BENCH_ROLLUP_KEEP=1            keep the seeded database and print its name
 *   BENCH_PG_URL                   PostgreSQL server (default postgres://$USER@127.0.0.1:5432/postgres)
 */

const ROLLUPS_MIGRATION = '20261202010000_usage_rollups';
const DAY_MS = 86_400_000;
const ADMIN_TOKEN = `bench-admin-${Date.now()}`;

interface Measured {
  name: string;
  target?: number;
  scope: SpendScope;
  groupBy: SpendGroup[];
  range: SpendRange;
  /** The HTTP request for the same totals: path and query, and whether the admin token or the key's secret goes with it. */
  http: { path: string; as: 'admin' | 'key' };
}

function envNumber(name: string, fallback: number): number {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
}

async function main(): Promise<number> {
  progressLabel('bench:rollups');
  const seed: UsageSeed = {
    records: envNumber('BENCH_ROLLUP_RECORDS', 10_000_000),
    days: envNumber('BENCH_ROLLUP_DAYS', 90),
    accounts: envNumber('BENCH_ROLLUP_ACCOUNTS', 1000),
    keys: envNumber('BENCH_ROLLUP_KEYS', 10_000),
    end: new Date(),
  };
  const runs = envNumber('BENCH_ROLLUP_RUNS', 15);
  const admin = adminUrl();
  const reused = process.env.BENCH_ROLLUP_DATABASE;
  const name = reused ?? `rollups_bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}`;
  const url = withDatabase(admin, name);
  const notes: string[] = [];

  if (!reused) {
    await withClient(admin, (c) => c.query(`CREATE DATABASE "${name}"`));
    if (process.env.BENCH_ROLLUP_KEEP !== '1') onCleanup(() => withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
    progress(`database ${name}: migrating up to the roll-ups, then seeding ${seed.records.toLocaleString('en-US')} usage records over ${seed.days} days`);
    const before = await openDatabase({ databaseUrl: url, dataDir: '' });
    await migrate(before, migrationsBefore(ROLLUPS_MIGRATION));
    await before.close();
    let started = performance.now();
    await withClient(url, async (client) => {
      await seedKeys(client, seed);
      await seedUsageRecords(client, seed);
    });
    notes.push(`seeded ${seed.records.toLocaleString('en-US')} records, ${seed.accounts} accounts, ${seed.keys} keys in ${fmt.seconds(performance.now() - started)}`);

    progress('applying the roll-ups migration (its backfill sums every record)');
    const db = await openDatabase({ databaseUrl: url, dataDir: '' });
    started = performance.now();
    const { applied } = await migrate(db);
    notes.push(`migration backfill (${applied.join(', ')}): ${fmt.seconds(performance.now() - started)}`);
    if (process.env.BENCH_ROLLUP_REBUILD !== '0') {
      const days = { from: utcDay(seed.end.getTime() - seed.days * DAY_MS), to: utcDay(seed.end.getTime() + DAY_MS) };
      started = performance.now();
      const count = await rebuildUsageRollups(db, days, (day) => progress(`rebuilt ${day}`));
      notes.push(`rollups rebuild of ${count} days: ${fmt.seconds(performance.now() - started)}`);
    }
    await withClient(url, (c) => c.query('VACUUM ANALYZE'));
    await db.close();
  }

  const db = await openDatabase({ databaseUrl: url, dataDir: '' });
  onCleanup(() => db.close());
  // A database seeded by an earlier run gets the migrations added since.
  if (reused) notes.push(`migrations applied to the reused database: ${(await migrate(db)).applied.join(', ') || 'none'}`);
  const week = { from: utcDay(seed.end.getTime() - 7 * DAY_MS), to: utcDay(seed.end.getTime() + DAY_MS) };
  progress(`checking the roll-ups of ${week.from} to ${week.to} against the records`);
  const differences = await usageRollupDifferences(db, week);
  notes.push(`rollups check ${week.from} to ${week.to}: ${differences.length ? `${differences.length} day(s) differ` : 'equal to the records\' sums'}`);

  const secret = newKeySecret();
  const busyAccount = seedAccountId(0, seed);
  const typicalKey = seedKeyId(Math.floor(seed.keys / 4));
  await db.query('UPDATE "api_keys" SET "key_hash" = $1 WHERE "id" = $2', [hashKeySecret(secret), typicalKey]);
  const queries = dashboardQueries(seed.end, busyAccount, seedAccountId(Math.floor(seed.keys / 4), seed), typicalKey);

  const spend = new SpendTotals(db);
  const rows: Row[] = [];
  const results: Array<{ query: Measured; service: number[]; http: number[]; raw: number; exact: boolean; groups: number }> = [];
  for (const query of queries) {
    progress(`${query.name}: the records' own sums`);
    let started = performance.now();
    const reference = await rawSpendTotals(db, query.scope, query.groupBy, query.range);
    const raw = performance.now() - started;
    const view = await spend.totals(query.scope, query.groupBy, query.range);
    const exact = sameRows(view, reference);
    const service: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      started = performance.now();
      await spend.totals(query.scope, query.groupBy, query.range);
      if (i >= 3) service.push(performance.now() - started);
    }
    results.push({ query, service, http: [], raw, exact, groups: view.data.length });
  }

  progress('starting a gateway process on the seeded database');
  const simulator = await startSimulatorProcess();
  onCleanup(() => simulator.handle.stop(5_000));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-rollups-'));
  onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const gateway = await startGatewayProcess({
    env: { DATABASE_URL: url, GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, LOG_REQUESTS: 'false', LOG_LEVEL: 'warn', ...simulatorProviderEnv(simulator.url) },
  });
  onCleanup(() => gateway.handle.stop(10_000));
  for (const result of results) {
    const headers = { authorization: `Bearer ${result.query.http.as === 'admin' ? ADMIN_TOKEN : secret}` };
    for (let i = 0; i < runs + 3; i++) {
      const started = performance.now();
      const res = await fetch(`${gateway.url}${result.query.http.path}`, { headers });
      const body = (await res.json()) as { data?: unknown[] };
      if (res.status !== 200 || body.data?.length !== result.groups) throw new Error(`${result.query.name} over HTTP: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      if (i >= 3) result.http.push(performance.now() - started);
    }
  }

  for (const r of results) {
    const service = summarize(r.service);
    const http = summarize(r.http);
    const check = r.query.target === undefined ? '' : service.p50 <= r.query.target ? 'PASS' : 'MISS';
    rows.push({
      cells: [r.query.name, String(r.groups), fmt.ms(r.raw), fmt.ms(service.p50), fmt.ms(service.p90), fmt.ms(http.p50), r.query.target === undefined ? '' : `< ${r.query.target} ms`, check, r.exact ? 'exact' : 'DIFFERS'],
    });
  }
  const columns: Column[] = [
    { title: 'Spend totals query' },
    { title: 'Groups', align: 'right' },
    { title: 'Records (before)', align: 'right' },
    { title: 'Service p50', align: 'right' },
    { title: 'Service p90', align: 'right' },
    { title: 'HTTP p50', align: 'right' },
    { title: 'Target (service p50)' },
    { title: 'Check' },
    { title: 'vs records' },
  ];
  notes.push(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  process.stdout.write(`${renderTable(columns, rows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
  process.stdout.write(`- ${runs} measured runs per query after 3 warm-up runs; "Records (before)": one GROUP BY over every record in range, as totals ran before roll-ups\n`);
  if (reused || process.env.BENCH_ROLLUP_KEEP === '1') process.stdout.write(`- database kept: ${name} (BENCH_ROLLUP_DATABASE=${name} measures it again)\n`);
  const failed = differences.length > 0 || results.some((r) => !r.exact);
  return failed ? 1 : 0;
}

/**
 * The dashboard questions: every account's last 30 whole days by day and
 * model (the console's range), and the same up to now (the API's default,
 * with ends that are not whole days); a busy account and a typical one; a
 * typical key; and the operator's groupings by account and by key.
 */
function dashboardQueries(end: Date, busyAccount: string, typicalAccount: string, typicalKey: string): Measured[] {
  const tomorrow = Math.floor(end.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  const wholeDays = { from: new Date(tomorrow - 30 * DAY_MS), to: new Date(tomorrow) };
  const upToNow = { from: new Date(end.getTime() - 30 * DAY_MS), to: end };
  const qs = (groupBy: string[], range: SpendRange, extra = '') =>
    `?group_by=${groupBy.join(',')}&from=${range.from.toISOString()}&to=${range.to.toISOString()}${extra}`;
  const admin = (groupBy: SpendGroup[], range: SpendRange, account?: string): Measured['http'] => ({
    path: `/api/admin/usage/totals${qs(groupBy, range, account ? `&account_id=${account}` : '')}`,
    as: 'admin',
  });
  const byDayModel: SpendGroup[] = ['day', 'model'];
  return [
    { name: 'all accounts, 30 whole days, by day and model', target: 50, scope: 'all_accounts', groupBy: byDayModel, range: wholeDays, http: admin(byDayModel, wholeDays) },
    { name: 'all accounts, 30 days up to now, by day and model', target: 50, scope: 'all_accounts', groupBy: byDayModel, range: upToNow, http: admin(byDayModel, upToNow) },
    { name: 'busiest account, 30 whole days, by day and model', target: 10, scope: { accountId: busyAccount }, groupBy: byDayModel, range: wholeDays, http: admin(byDayModel, wholeDays, busyAccount) },
    { name: 'busiest account, 30 days up to now, by day and model', target: 10, scope: { accountId: busyAccount }, groupBy: byDayModel, range: upToNow, http: admin(byDayModel, upToNow, busyAccount) },
    { name: 'typical account, 30 days up to now, by day and model', target: 10, scope: { accountId: typicalAccount }, groupBy: byDayModel, range: upToNow, http: admin(byDayModel, upToNow, typicalAccount) },
    { name: 'typical key, 30 whole days, by day and model', target: 5, scope: { keyId: typicalKey }, groupBy: byDayModel, range: wholeDays, http: { path: `/api/usage/totals${qs(byDayModel, wholeDays)}`, as: 'key' } },
    { name: 'typical key, 30 days up to now, by day and model', target: 5, scope: { keyId: typicalKey }, groupBy: byDayModel, range: upToNow, http: { path: `/api/usage/totals${qs(byDayModel, upToNow)}`, as: 'key' } },
    { name: 'busiest account, 30 days up to now, by key and project', scope: { accountId: busyAccount }, groupBy: ['key', 'project'], range: upToNow, http: admin(['key', 'project'], upToNow, busyAccount) },
    { name: 'all accounts, 30 whole days, by account', scope: 'all_accounts', groupBy: ['account'], range: wholeDays, http: admin(['account'], wholeDays) },
  ];
}

function sameRows(view: SpendTotalsView, reference: Awaited<ReturnType<typeof rawSpendTotals>>): boolean {
  const mine = view.data.map((row) => JSON.stringify([view.group_by.map((g) => row[g] ?? null), row.requests, row.prompt_tokens, row.completion_tokens, row.amount_microusd])).sort();
  const theirs = reference.map((row) => JSON.stringify([view.group_by.map((g) => row.groups[g]), row.requests, row.prompt_tokens, row.completion_tokens, row.amount_microusd])).sort();
  return JSON.stringify(mine) === JSON.stringify(theirs);
}

/** A folder of the migrations that come before `name`, for a database as it was before that migration. */
function migrationsBefore(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-before-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  for (const m of readdirSync(defaultMigrationsDir()).filter((m) => m < name)) cpSync(path.join(defaultMigrationsDir(), m), path.join(dir, m), { recursive: true });
  return dir;
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

main().then(
  async (code) => {
    await runCleanups(progress);
    process.exit(code);
  },
  async (err) => {
    progress(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    killAllChildren();
    await runCleanups(progress);
    process.exit(1);
  },
);
