import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { onCleanup, runCleanups } from './cleanup';
import { abortAllLoad, createTarget, runLoad, type LoadResult, type RequestSpec, type Target } from './load';
import { createBenchDatabase, withClient } from './postgres';
import { killAllChildren, startGatewayProcess, startSimulatorProcess, type GatewayProcess } from './processes';
import { GroupCpuMeter, NoiseMeter, pidsNamed, type NoiseSample } from './proc-stats';
import { progress } from './progress';
import { median, round } from './stats';
import { simulatorProviderEnv } from './upstream';

/**
 * `npm run bench:spend-leases`: spend control with leases, on four gateway
 * instances (separate processes) over one PostgreSQL database and one Redis,
 * all traffic from one account.
 *
 * 1. Throughput: interleaved windows of the same load through the four
 *    instances, with a key of an account without a wallet and with a key of
 *    an account under spend control (a prepaid wallet and a hard account
 *    budget, neither reached); the ratio of the medians is the goal (>= 85 %).
 * 2. Exhaustion: the same load against a hard budget small enough to run out
 *    in the first seconds: what was charged (the ledger, the usage records)
 *    never passes it, every lease ends, reconcile is clean.
 * 3. A crash: the same, with one instance SIGKILLed mid-run: its lease
 *    expires (GATEWAY_SPEND_LEASE_TTL_MS) and comes back, no overspend,
 *    reconcile clean.
 *
 * Leases taken, returned and expired come from the ledger. The machine's
 * other load during each window (CPU of processes outside the run) is
 * reported as noise. Exits non-zero when a check fails.
 *
 * Environment (all optional):
 *   BENCH_SECONDS=6          each measured window
 *   BENCH_REPETITIONS=3      interleaved pairs of throughput windows
 *   BENCH_CONNECTIONS=50     concurrency, spread over the instances
 *   BENCH_INSTANCES=4
 *   BENCH_LEASE_TTL_MS=3000  the instances' lease expiry
 *   BENCH_SPEND_LEASES=on    `off`: the same run with one hold per call (GATEWAY_SPEND_LEASES=off), for comparison
 *   BENCH_REDIS_URL          default redis://127.0.0.1:6379
 *   BENCH_PG_URL             PostgreSQL server (default postgres://$USER@127.0.0.1:5432/postgres)
 *   BENCH_JSON=1             also write spend-leases-results.json
 */

const ADMIN_TOKEN = 'bench-spend-leases-admin-token';
const MODEL = 'gpt-4.1-mini';

interface Settings {
  seconds: number;
  repetitions: number;
  connections: number;
  instances: number;
  leaseTtlMs: number;
  leases: 'on' | 'off';
  redisUrl: string;
  json: boolean;
}

function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const n = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);
  return {
    seconds: n('BENCH_SECONDS', 6),
    repetitions: Math.round(n('BENCH_REPETITIONS', 3)),
    connections: Math.round(n('BENCH_CONNECTIONS', 50)),
    instances: Math.round(n('BENCH_INSTANCES', 4)),
    leaseTtlMs: Math.round(n('BENCH_LEASE_TTL_MS', 3_000)),
    leases: env.BENCH_SPEND_LEASES === 'off' ? 'off' : 'on',
    redisUrl: env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
    json: env.BENCH_JSON === '1' || env.BENCH_JSON === 'true',
  };
}

const CHAT: RequestSpec = {
  method: 'POST',
  path: '/v1/chat/completions',
  body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Say hello to the benchmark. [sim words=20]' }], max_tokens: 60 }),
  stream: false,
};

async function admin(gateway: GatewayProcess, pathname: string, method = 'GET', body?: unknown): Promise<any> {
  const res = await request(`${gateway.url}${pathname}`, {
    method: method as 'GET', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${pathname}: HTTP ${res.statusCode}: ${text}\n${gateway.handle.output.text().slice(-4_000)}`);
  return JSON.parse(text);
}

/** An account and a key of it; with `budget`, a prepaid wallet far above it and a hard total budget on the account. */
async function accountKey(gateway: GatewayProcess, name: string, budget: number | null): Promise<{ account: string; key: string }> {
  const account = String((await admin(gateway, '/api/admin/accounts', 'POST', { name })).id);
  const made = await admin(gateway, '/api/admin/keys', 'POST', { name, account_id: account });
  if (budget !== null) {
    await admin(gateway, `/api/admin/accounts/${account}/wallet/top-ups`, 'POST', { amount_microusd: 1_000_000_000_000, note: 'bench' });
    await admin(gateway, `/api/admin/accounts/${account}/budgets`, 'POST', { scope: 'account', period: 'total', limit_microusd: budget, mode: 'hard' });
  }
  return { account, key: String(made.key) };
}

/** One target per instance, so that the workers spread the load over all of them. */
function targets(gateways: GatewayProcess[], key: string, label: string, connections: number): Target[] {
  return gateways.map((g, i) => createTarget(`${label} #${i + 1}`, g.url, { authorization: `Bearer ${key}` }, Math.ceil(connections / gateways.length) + 1));
}

interface Window {
  requests: number;
  ok: number;
  non2xx: Record<string, number>;
  failures: number;
  rate: number;
  okRate: number;
  /** CPU milliseconds per request of the gateway instances together, and of the PostgreSQL backends serving them. */
  gatewayCpuMs: number;
  postgresCpuMs: number;
  /** The run's database per request: transactions committed, rows inserted, rows updated. */
  database: DatabaseWork;
  noise: NoiseSample;
}

interface DatabaseWork {
  commits: number;
  inserted: number;
  updated: number;
}

/** The database's counters (pg_stat_database, flushed by its backends at most a second late). */
async function databaseCounters(databaseUrl: string): Promise<DatabaseWork> {
  return withClient(databaseUrl, async (c) => {
    const row = (await c.query<{ commits: string; inserted: string; updated: string }>(
      'SELECT "xact_commit"::text AS "commits", "tup_inserted"::text AS "inserted", "tup_updated"::text AS "updated" FROM pg_stat_database WHERE "datname" = current_database()')).rows[0]!;
    return { commits: Number(row.commits), inserted: Number(row.inserted), updated: Number(row.updated) };
  });
}

interface Pids {
  all: () => number[];
  gateways: () => number[];
  /** The PostgreSQL backends serving the run's database (others on the server are other people's load). */
  database: () => Promise<number[]>;
  databaseUrl: string;
}

async function window(label: string, load: Target[], settings: Settings, pids: Pids, during?: (elapsedMs: () => number) => Promise<void>): Promise<Window> {
  const noise = new NoiseMeter(pids.all);
  const gatewayCpu = new GroupCpuMeter(pids.gateways);
  const backends = await pids.database();
  const postgresCpu = new GroupCpuMeter(() => backends);
  const before = await databaseCounters(pids.databaseUrl);
  const started = performance.now();
  const [result] = await Promise.all([
    runLoad({ targets: load, connections: settings.connections, durationMs: settings.seconds * 1000, request: CHAT }),
    during?.(() => performance.now() - started),
  ]);
  const w = { ...summarise(result, noise.stop()), gatewayCpuMs: 0, postgresCpuMs: 0, database: { commits: 0, inserted: 0, updated: 0 } };
  w.gatewayCpuMs = gatewayCpu.elapsedMs() / Math.max(1, w.requests);
  w.postgresCpuMs = postgresCpu.elapsedMs() / Math.max(1, w.requests);
  await new Promise((r) => setTimeout(r, 1_100));
  const after = await databaseCounters(pids.databaseUrl);
  const per = (n: number) => round(n / Math.max(1, w.requests), 2);
  w.database = { commits: per(after.commits - before.commits), inserted: per(after.inserted - before.inserted), updated: per(after.updated - before.updated) };
  progress(`${label}: ${w.requests} requests (${w.ok} ok) in ${result.elapsedS.toFixed(1)} s = ${w.rate.toFixed(0)}/s; ` +
    `CPU per request: gateways ${w.gatewayCpuMs.toFixed(3)} ms, PostgreSQL ${w.postgresCpuMs.toFixed(3)} ms; ` +
    `per request: ${w.database.commits} commits, ${w.database.inserted} rows inserted, ${w.database.updated} updated; other load ${share(w.noise)}`);
  return w;
}

function summarise(result: LoadResult, noise: NoiseSample): Omit<Window, 'gatewayCpuMs' | 'postgresCpuMs' | 'database'> {
  let requests = 0;
  let ok = 0;
  let failures = 0;
  const non2xx: Record<string, number> = {};
  for (const r of result.byTarget.values()) {
    requests += r.requests;
    ok += r.ok;
    failures += r.failures;
    for (const [status, count] of Object.entries(r.statuses)) non2xx[status] = (non2xx[status] ?? 0) + count;
  }
  return { requests, ok, non2xx, failures, rate: requests / result.elapsedS, okRate: ok / result.elapsedS, noise };
}

/** Other processes' share of the machine's CPU during a window. */
function share(noise: NoiseSample): string {
  return noise.capacityTicks ? `${((100 * noise.otherTicks) / noise.capacityTicks).toFixed(0)} % of the CPUs` : 'n/a';
}

interface SpendCheck {
  limit: number;
  ledgerCharged: number;
  recordsCharged: number;
  leases: number;
  returned: number;
  expired: number;
  open: number;
  budgetHeld: number;
  reconcileOk: boolean;
  failedChecks: string[];
}

/** Waits for every lease of the account to end, then reads what it spent from the ledger and the usage records. */
async function spendCheck(databaseUrl: string, gateway: GatewayProcess, account: string, limit: number): Promise<SpendCheck> {
  const deadline = Date.now() + 30_000;
  let report = await admin(gateway, `/api/admin/reconcile?account_id=${account}`);
  while (report.open_leases.count > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    report = await admin(gateway, `/api/admin/reconcile?account_id=${account}`);
  }
  return withClient(databaseUrl, async (c) => {
    const one = async (sql: string) => Number((await c.query<{ n: string | null }>(sql, [account])).rows[0]?.n ?? 0);
    return {
      limit,
      ledgerCharged: await one('SELECT sum("charged_microusd")::text AS n FROM "ledger_entries" WHERE "account_id" = $1'),
      recordsCharged: await one('SELECT sum("amount_microusd")::text AS n FROM "usage_records" WHERE "account_id" = $1'),
      leases: await one(`SELECT count(*)::text AS n FROM "ledger_entries" WHERE "account_id" = $1 AND "kind" = 'lease'`),
      returned: await one(`SELECT count(*)::text AS n FROM "ledger_entries" WHERE "account_id" = $1 AND "kind" = 'lease_return' AND "note" IS DISTINCT FROM 'expired'`),
      expired: await one(`SELECT count(*)::text AS n FROM "ledger_entries" WHERE "account_id" = $1 AND "kind" = 'lease_return' AND "note" = 'expired'`),
      open: await one('SELECT count(*)::text AS n FROM "spend_leases" WHERE "account_id" = $1 AND "ended_at" IS NULL'),
      budgetHeld: await one('SELECT sum(u."held_microusd")::text AS n FROM "budget_usage" u JOIN "budgets" b ON b."id" = u."budget_id" WHERE b."account_id" = $1'),
      reconcileOk: report.ok === true,
      failedChecks: (report.checks as Array<{ name: string; ok: boolean }>).filter((x) => !x.ok).map((x) => x.name),
    };
  });
}

/** `checkHeld`: whether every hold must be ended (per-call holds of a killed instance stay open until GATEWAY_HOLD_EXPIRY_MS). */
function spendProblems(label: string, s: SpendCheck, checkHeld = true): string[] {
  const problems: string[] = [];
  if (s.ledgerCharged > s.limit) problems.push(`${label}: the ledger charged ${s.ledgerCharged}, over the hard limit ${s.limit}`);
  if (s.recordsCharged > s.limit) problems.push(`${label}: the usage records charged ${s.recordsCharged}, over the hard limit ${s.limit}`);
  if (s.recordsCharged !== s.ledgerCharged) problems.push(`${label}: the usage records charged ${s.recordsCharged}, the ledger ${s.ledgerCharged}`);
  if (s.open) problems.push(`${label}: ${s.open} leases still open`);
  if (s.leases !== s.returned + s.expired) problems.push(`${label}: ${s.leases} leases taken, ${s.returned} returned and ${s.expired} expired`);
  if (s.budgetHeld && checkHeld) problems.push(`${label}: the budget still holds ${s.budgetHeld}`);
  if (!s.reconcileOk) problems.push(`${label}: reconcile failed: ${s.failedChecks.join(', ')}`);
  return problems;
}

async function main(): Promise<void> {
  const settings = readSettings();
  const failures: string[] = [];
  progress(`starting the simulator, the database and ${settings.instances} gateway instances`);
  const [simulator, database] = await Promise.all([startSimulatorProcess(), createBenchDatabase(process.env, 'leases_bench')]);
  onCleanup(() => simulator.handle.stop(5_000));
  onCleanup(() => database.drop());
  const env = (i: number): NodeJS.ProcessEnv => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `spend-leases-${i}-`));
    onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    return {
      DATABASE_URL: database.url, REDIS_URL: settings.redisUrl, GATEWAY_DATA_DIR: dataDir, ...simulatorProviderEnv(simulator.url),
      GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'warn', LOG_REQUESTS: 'false', GATEWAY_SPEND_LEASE_TTL_MS: String(settings.leaseTtlMs), GATEWAY_SPEND_LEASES: settings.leases,
    };
  };
  const start = async (i: number) => {
    const g = await startGatewayProcess({ env: env(i), name: `gateway ${i}` });
    onCleanup(() => g.handle.stop(10_000));
    return g;
  };
  // One at a time: the first applies the migrations.
  const gateways: GatewayProcess[] = [await start(1)];
  gateways.push(...(await Promise.all(Array.from({ length: settings.instances - 1 }, (_, i) => start(i + 2)))));
  const pids: Pids = {
    all: () => [...gateways.map((g) => g.handle.pid), simulator.handle.pid, process.pid, ...pidsNamed('postgres')],
    gateways: () => gateways.map((g) => g.handle.pid),
    database: () => withClient(database.url, async (c) =>
      (await c.query<{ pid: number }>('SELECT "pid" FROM pg_stat_activity WHERE "datname" = current_database() AND "pid" <> pg_backend_pid()')).rows.map((r) => r.pid)),
    databaseUrl: database.url,
  };
  const first = gateways[0]!;

  // 1. Throughput, no wallet against spend control with leases.
  const plainKey = await accountKey(first, 'bench-no-wallet', null);
  const budgetLimit = 1_000_000_000_000;
  const held = await accountKey(first, 'bench-spend-control', budgetLimit);
  const plain = targets(gateways, plainKey.key, 'no wallet', settings.connections);
  const leased = targets(gateways, held.key, 'spend control', settings.connections);
  onCleanup(() => Promise.all([...plain, ...leased].map((t) => t.pool.destroy())));
  await runLoad({ targets: plain, connections: settings.connections, durationMs: 1_500, request: CHAT });
  await runLoad({ targets: leased, connections: settings.connections, durationMs: 1_500, request: CHAT });
  const pairs: Array<{ plain: Window; leased: Window }> = [];
  for (let rep = 1; rep <= settings.repetitions; rep++) {
    const p = await window(`no wallet (${rep}/${settings.repetitions})`, plain, settings, pids);
    const l = await window(`spend control, leases ${settings.leases} (${rep}/${settings.repetitions})`, leased, settings, pids);
    pairs.push({ plain: p, leased: l });
  }
  for (const { plain: p, leased: l } of pairs) {
    if (p.requests !== p.ok || l.requests !== l.ok) failures.push(`throughput: errors (no wallet ${p.requests - p.ok}, spend control ${l.requests - l.ok}): ${JSON.stringify({ p: p.non2xx, l: l.non2xx })}`);
  }
  const plainRate = median(pairs.map((x) => x.plain.rate));
  const leasedRate = median(pairs.map((x) => x.leased.rate));
  const ratio = leasedRate / plainRate;
  const throughputSpend = await spendCheck(database.url, first, held.account, budgetLimit);
  failures.push(...spendProblems('throughput', throughputSpend));

  // 2. A hard budget that runs out within the first seconds of the window.
  const perCall = throughputSpend.ledgerCharged / Math.max(1, pairs.reduce((n, x) => n + x.leased.ok, 0));
  const exhaustLimit = Math.round(perCall * leasedRate * Math.min(2, settings.seconds / 3));
  const exhausted = await accountKey(first, 'bench-exhausted', exhaustLimit);
  const exhaustTargets = targets(gateways, exhausted.key, 'exhausted', settings.connections);
  onCleanup(() => Promise.all(exhaustTargets.map((t) => t.pool.destroy())));
  const exhaustWindow = await window('hard budget running out', exhaustTargets, settings, pids);
  const exhaustSpend = await spendCheck(database.url, first, exhausted.account, exhaustLimit);
  failures.push(...spendProblems('exhaustion', exhaustSpend));
  if (Object.keys(exhaustWindow.non2xx).some((s) => s !== '402') || exhaustWindow.failures) failures.push(`exhaustion: answers other than 200 and 402: ${JSON.stringify(exhaustWindow.non2xx)}, ${exhaustWindow.failures} failed`);

  // 3. The same, with one instance SIGKILLed a third into the window; the window is long enough for its lease to expire.
  const crashSeconds = Math.max(settings.seconds, (3 * settings.leaseTtlMs) / 1000 + 2);
  const crashLimit = Math.round(perCall * leasedRate * crashSeconds * 0.8);
  const crashed = await accountKey(first, 'bench-crash', crashLimit);
  const crashTargets = targets(gateways, crashed.key, 'crash', settings.connections);
  onCleanup(() => Promise.all(crashTargets.map((t) => t.pool.destroy())));
  const victim = gateways[gateways.length - 1]!;
  const crashWindow = await window('one instance SIGKILLed mid-run', crashTargets, { ...settings, seconds: crashSeconds }, pids, async (elapsed) => {
    while (elapsed() < (crashSeconds * 1000) / 3) await new Promise((r) => setTimeout(r, 50));
    progress(`SIGKILL to gateway ${gateways.length} (pid ${victim.handle.pid})`);
    victim.handle.child.kill('SIGKILL');
    await crashTargets[crashTargets.length - 1]!.pool.close().catch(() => undefined);
  });
  const crashSpend = await spendCheck(database.url, first, crashed.account, crashLimit);
  failures.push(...spendProblems('crash', crashSpend, settings.leases === 'on'));
  if (settings.leases === 'on' && crashSpend.expired < 1) failures.push('crash: the killed instance left no lease that expired');

  const noise = [...pairs.flatMap((x) => [x.plain.noise, x.leased.noise]), exhaustWindow.noise, crashWindow.noise];
  const results = {
    leases: settings.leases,
    instances: settings.instances,
    connections: settings.connections,
    seconds: settings.seconds,
    throughput: {
      no_wallet_rps: round(plainRate, 0),
      spend_control_rps: round(leasedRate, 0),
      ratio: round(ratio, 3),
      pairs: pairs.map((x) => ({
        no_wallet_rps: round(x.plain.rate, 0), spend_control_rps: round(x.leased.rate, 0),
        no_wallet_cpu_ms: { gateways: round(x.plain.gatewayCpuMs, 3), postgres: round(x.plain.postgresCpuMs, 3) },
        spend_control_cpu_ms: { gateways: round(x.leased.gatewayCpuMs, 3), postgres: round(x.leased.postgresCpuMs, 3) },
      })),
      spend: throughputSpend,
    },
    exhaustion: { rps: round(exhaustWindow.rate, 0), ok: exhaustWindow.ok, refused: exhaustWindow.non2xx['402'] ?? 0, spend: exhaustSpend },
    crash: { seconds: crashSeconds, rps: round(crashWindow.rate, 0), ok: crashWindow.ok, refused: crashWindow.non2xx['402'] ?? 0, failed: crashWindow.failures, spend: crashSpend },
    other_load_percent: noise.map((n) => (n.capacityTicks ? round((100 * n.otherTicks) / n.capacityTicks, 0) : null)),
    failures,
  };
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  if (settings.json) writeFileSync('spend-leases-results.json', `${JSON.stringify(results, null, 2)}\n`);
  if (ratio < 0.85) progress(`MISS: spend control ran at ${(ratio * 100).toFixed(0)} % of the no-wallet throughput (goal: 85 %)`);
  for (const f of failures) progress(`FAIL: ${f}`);
  process.exitCode = failures.length ? 1 : 0;
}

process.on('exit', killAllChildren);
process.on('SIGINT', () => {
  abortAllLoad();
  void runCleanups(progress).finally(() => process.exit(130));
});
main()
  .catch((err: unknown) => {
    progress(`spend-leases bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 1;
  })
  .finally(() => runCleanups(progress));
