import { HoldSweeper } from '../../src/jobs/hold-sweeper';
import { faultyChatLoad } from '../support/faulty-chat-load';
import { readUntil } from '../support/eventually';
import { instancesOnOneDatabase } from '../support/instances-on-one-database';
import type { GatewayProcess } from '../support/gateway-process';
import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Answer {
  status: number;
  code: string | null;
  details: { remaining_microusd?: number; hold_microusd?: number } | null;
  requestId: string;
}

interface LedgerEntry {
  id: string;
  kind: string;
  amount_microusd: number;
  charged_microusd: number;
  hold_id: string | null;
  request_id: string | null;
  note: string | null;
}

/** A few calls to the admin API and the chat endpoint of any gateway, by its URL. */
function client(adminUrl: () => string) {
  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${adminUrl()}${path}`, {
      method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const call = async (url: string, key: string, i: number): Promise<Answer> => {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: `Lease ${i}` }], max_tokens: 100 }),
    });
    const body = (await res.json()) as { error?: { code: string; details?: Answer['details'] } };
    return { status: res.status, code: body.error?.code ?? null, details: body.error?.details ?? null, requestId: res.headers.get('x-svc-request-id')! };
  };
  /** `perUrl` calls on each URL, all at once. */
  const flood = (urls: string[], key: string, perUrl: number) =>
    Promise.all(Array.from({ length: perUrl * urls.length }, (_, i) => call(urls[i % urls.length]!, key, i)));
  const ledger = async (accountId: string): Promise<LedgerEntry[]> => {
    const entries: LedgerEntry[] = [];
    for (let before: string | undefined; ;) {
      const page = await admin(`/api/admin/accounts/${accountId}/ledger?limit=500${before ? `&before=${before}` : ''}`);
      entries.push(...page.body.data);
      if (!page.body.has_more) return entries;
      before = page.body.next_before;
    }
  };
  const newAccountKey = async (name: string) => {
    const account = (await admin('/api/admin/accounts', 'POST', { name })).body.id as string;
    const made = await admin('/api/admin/keys', 'POST', { name, account_id: account });
    return { account, key: made.body.key as string, keyId: made.body.id as string };
  };
  /** Reconcile once every lease is back: leases are given back a moment after their calls end. */
  const reconciledWithoutLeases = (accountId: string) =>
    readUntil(async () => (await admin(`/api/admin/reconcile?account_id=${accountId}`)).body, (r) => r.open_leases.count === 0, `the leases of ${accountId} to be given back`, 15_000, 100);
  return { admin, flood, ledger, newAccountKey, reconciledWithoutLeases };
}

/** What the ledger says of leases: taken, returned, expired, and the charges booked inside them. */
function leaseFigures(entries: LedgerEntry[]) {
  const leases = entries.filter((e) => e.kind === 'lease');
  const returns = entries.filter((e) => e.kind === 'lease_return');
  const leaseIds = new Set(leases.map((e) => e.id));
  return {
    leases,
    returns,
    expired: returns.filter((e) => e.note === 'expired'),
    charges: entries.filter((e) => e.kind === 'charge' && e.hold_id !== null && leaseIds.has(e.hold_id)),
  };
}

/**
 * Leases on one instance: a burst of calls from one caller is held inside a
 * lease (one `lease` entry, one `charge` per charged call, one
 * `lease_return`), a call charged inside a lease can be refunded, and the
 * ledger still adds up.
 */
describe.each(TEST_DATABASES)('spend leases on one instance (%s)', (database) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database });
  });
  afterAll(() => t?.close());
  const c = client(() => t.url);

  it('a burst is held in a lease, each charge names its request, and what is left is given back', async () => {
    const { account, key } = await c.newAccountKey('lease-burst');
    await c.admin(`/api/admin/accounts/${account}/wallet/top-ups`, 'POST', { amount_microusd: 10_000_000 });
    const answers = await c.flood([t.url], key, 60);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const report = await c.reconciledWithoutLeases(account);
    expect(report.checks.filter((x: { ok: boolean }) => !x.ok)).toEqual([]);
    const entries = await c.ledger(account);
    const { leases, returns, charges } = leaseFigures(entries);
    expect(leases.length).toBeGreaterThan(0);
    expect(returns.map((e) => e.hold_id).sort()).toEqual(leases.map((e) => e.id).sort());
    // Calls held in a lease have no hold of their own; each one charged has one charge entry with its request id.
    const held = new Set(entries.filter((e) => e.kind === 'hold').map((e) => e.request_id));
    const leased = answers.filter((a) => !held.has(a.requestId));
    expect(leased.length).toBeGreaterThan(0);
    expect(charges.map((e) => e.request_id).sort()).toEqual(leased.map((a) => a.requestId).sort());
    const charged = entries.reduce((sum, e) => sum + e.charged_microusd, 0);
    const wallet = (await c.admin(`/api/admin/accounts/${account}/wallet`)).body;
    expect(wallet).toMatchObject({ balance_microusd: 10_000_000 - charged, held_microusd: 0 });

    // A call charged inside a lease is refunded like any other.
    const refunded = charges[0]!;
    const refund = await c.admin('/api/admin/refunds', 'POST', { request_id: refunded.request_id });
    expect(refund.status).toBe(201);
    expect((await c.admin(`/api/admin/accounts/${account}/wallet`)).body.balance_microusd).toBe(10_000_000 - charged + refunded.charged_microusd);
    expect((await c.admin('/api/admin/refunds', 'POST', { request_id: refunded.request_id })).body.error.code).toBe('nothing_to_refund');
    expect((await c.admin(`/api/admin/reconcile?account_id=${account}`)).body.ok).toBe(true);
  });

  it('forgets a lease a day after it ended, and a call recorded after that is still charged, from the balance', async () => {
    const { account, key } = await c.newAccountKey('lease-forgotten');
    await c.admin(`/api/admin/accounts/${account}/wallet/top-ups`, 'POST', { amount_microusd: 10_000_000 });
    expect((await c.flood([t.url], key, 30)).map((a) => a.status)).toEqual(Array(30).fill(200));
    await c.reconciledWithoutLeases(account);
    const { leases } = leaseFigures(await c.ledger(account));
    expect(leases.length).toBeGreaterThan(0);
    const ids = leases.map((e) => e.id);
    const db = t.gateway.db;
    const sweeper = new HoldSweeper(t.gateway.services.ledger, t.gateway.services.leaseStore, t.gateway.services.logger, 60_000);
    // Ended an hour ago: kept.
    await db.query(`UPDATE "spend_leases" SET "ended_at" = now() - interval '1 hour' WHERE "id" = ANY($1::bigint[])`, [ids]);
    await sweeper.sweep();
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS "n" FROM "spend_leases" WHERE "id" = ANY($1::bigint[])', [ids])).rows[0]!.n).toBe(ids.length);
    // Ended two days ago: deleted; the ledger keeps the lease and its return.
    await db.query(`UPDATE "spend_leases" SET "ended_at" = now() - interval '2 days' WHERE "id" = ANY($1::bigint[])`, [ids]);
    await sweeper.sweep();
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS "n" FROM "spend_leases" WHERE "id" = ANY($1::bigint[])', [ids])).rows[0]!.n).toBe(0);
    const before = await c.ledger(account);
    expect(leaseFigures(before).returns).toHaveLength(leases.length);
    // A record of a call inside the first lease arriving now (a spool replayed late) is booked as a late charge.
    const late = { hold_id: ids[0], charged: 1234, request_id: 'req_late_after_forgotten_lease', note: null };
    await db.query('SELECT gateway_end_holds($1::jsonb)', [JSON.stringify([late])]);
    const booked = (await c.ledger(account)).filter((e) => e.request_id === late.request_id);
    expect(booked.map((e) => [e.kind, e.amount_microusd, e.charged_microusd, e.hold_id])).toEqual([['charge', -1234, 1234, ids[0]]]);
    const wallet = (await c.admin(`/api/admin/accounts/${account}/wallet`)).body;
    const charged = before.reduce((sum, e) => sum + e.charged_microusd, 0);
    expect(wallet.balance_microusd).toBe(10_000_000 - charged - 1234);
  });

  it('keeps every invariant after a load held in leases with upstream errors, cut streams and clients that leave', async () => {
    const { account, key, keyId } = await c.newAccountKey('lease-faults');
    await c.admin(`/api/admin/accounts/${account}/wallet/top-ups`, 'POST', { amount_microusd: 50_000_000 });
    await c.admin(`/api/admin/accounts/${account}/budgets`, 'POST', { scope: 'key', scope_id: keyId, period: 'daily', limit_microusd: 40_000_000 });
    await faultyChatLoad(t.url, key);
    const report = await c.reconciledWithoutLeases(account);
    expect(report.checks.filter((x: { ok: boolean }) => !x.ok)).toEqual([]);
    expect(report.open_holds.count).toBe(0);
    const entries = await c.ledger(account);
    const { leases, returns, charges } = leaseFigures(entries);
    expect(leases.length).toBeGreaterThan(0);
    expect(returns).toHaveLength(leases.length);
    // The first calls of the burst hold one by one (the caller is not hot yet), the rest inside leases.
    expect(charges.length).toBeGreaterThan(0);
    expect(charges.length + entries.filter((e) => e.kind === 'settle').length).toBeGreaterThanOrEqual(20);
    expect((await c.admin(`/api/admin/accounts/${account}/wallet`)).body.held_microusd).toBe(0);
  });
});

/**
 * Leases across instances on one PostgreSQL: every outstanding lease counts
 * as spent, so a hard budget is never passed, and no room is left stranded
 * in a lease once calls stop; a killed instance's lease expires and its
 * unspent part comes back.
 */
describe('spend leases across instances', () => {
  const instances = instancesOnOneDatabase();
  let a: GatewayProcess;
  let b: GatewayProcess;
  const c = client(() => a.url);

  beforeAll(async () => {
    const env = { REDIS_URL, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_SPEND_LEASE_TTL_MS: '2000' };
    [a, b] = await Promise.all([instances.spawn(env), instances.spawn(env)]);
  });

  it('a hard budget raced from two instances is spent up to its last call and never past it', async () => {
    const { account, key, keyId } = await c.newAccountKey('lease-race');
    const LIMIT = 60_000;
    const budget = (await c.admin(`/api/admin/accounts/${account}/budgets`, 'POST', { scope: 'key', scope_id: keyId, period: 'total', limit_microusd: LIMIT, mode: 'hard' })).body;
    await new Promise((r) => setTimeout(r, 1_000));
    let last: Answer[] = [];
    for (let round = 0; round < 20; round++) {
      // Each round starts with every lease given back, so a refusal means the budget itself has no room.
      await c.reconciledWithoutLeases(account);
      last = await c.flood([a.url, b.url], key, 100);
      expect(last.filter((x) => x.status !== 200).every((x) => x.status === 402 && x.code === 'budget_exceeded')).toBe(true);
      const now = (await c.admin(`/api/admin/budgets/${budget.id}`)).body;
      expect(now.spent_microusd + now.held_microusd).toBeLessThanOrEqual(LIMIT);
      if (last.every((x) => x.status === 402)) break;
    }
    expect(last.every((x) => x.status === 402)).toBe(true);
    // Nothing is left that one more call could use: the room is below one call's worst case.
    for (const refusal of last) expect(refusal.details!.remaining_microusd!).toBeLessThan(refusal.details!.hold_microusd!);
    const report = await c.reconciledWithoutLeases(account);
    expect(report.checks.filter((x: { ok: boolean }) => !x.ok)).toEqual([]);
    const after = (await c.admin(`/api/admin/budgets/${budget.id}`)).body;
    const entries = await c.ledger(account);
    const { leases, returns, charges } = leaseFigures(entries);
    expect(leases.length).toBeGreaterThan(1);
    expect(returns).toHaveLength(leases.length);
    const charged = entries.reduce((sum, e) => sum + e.charged_microusd, 0);
    expect(after).toMatchObject({ spent_microusd: charged, held_microusd: 0 });
    expect(charged).toBeLessThanOrEqual(LIMIT);
    expect(charges.length).toBeGreaterThan(0);
  });

  it('the lease of an instance killed mid-run expires, its unspent part comes back, and the budget holds', async () => {
    const { account, key, keyId } = await c.newAccountKey('lease-kill');
    const LIMIT = 200_000;
    const budget = (await c.admin(`/api/admin/accounts/${account}/budgets`, 'POST', { scope: 'key', scope_id: keyId, period: 'total', limit_microusd: LIMIT, mode: 'hard' })).body;
    const doomed = await instances.spawn({ REDIS_URL, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_SPEND_LEASE_TTL_MS: '2000' });
    await c.flood([doomed.url], key, 60);
    // Calls in flight on the doomed instance when it dies, in a lease it took for them.
    const dying = c.flood([doomed.url], key, 60).catch(() => []);
    await readUntil(async () => (await c.admin(`/api/admin/reconcile?account_id=${account}`)).body, (r) => r.open_leases.count > 0, 'a lease held by the doomed instance', 10_000, 10);
    await instances.stop(doomed, 'SIGKILL');
    await dying;
    const held = (await c.admin(`/api/admin/budgets/${budget.id}`)).body.held_microusd;
    expect(held).toBeGreaterThan(0);
    // Past its expiry, the next lease of the account ends it.
    await new Promise((r) => setTimeout(r, 2_500));
    const answers = await c.flood([a.url, b.url], key, 40);
    expect(answers.filter((x) => x.status !== 200).every((x) => x.status === 402 && x.code === 'budget_exceeded')).toBe(true);
    const report = await c.reconciledWithoutLeases(account);
    expect(report.checks.filter((x: { ok: boolean }) => !x.ok)).toEqual([]);
    const entries = await c.ledger(account);
    const { leases, returns, expired } = leaseFigures(entries);
    expect(expired.length).toBeGreaterThan(0);
    expect(returns).toHaveLength(leases.length);
    const charged = entries.reduce((sum, e) => sum + e.charged_microusd, 0);
    expect((await c.admin(`/api/admin/budgets/${budget.id}`)).body).toMatchObject({ spent_microusd: charged, held_microusd: 0 });
    expect(charged).toBeLessThanOrEqual(LIMIT);
  });
});
