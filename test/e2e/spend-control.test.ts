import OpenAI from 'openai';
import { faultyChatLoad } from '../support/faulty-chat-load';
import { readUntil } from '../support/eventually';
import { ADMIN_TOKEN, fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/**
 * Wallets, budgets and the ledger through the admin API, and what they do
 * to paid calls made with the real openai SDK: a hold before the upstream
 * call, settled or released by the usage record, refusals that never reach
 * the upstream, and invariants the reconcile endpoint recomputes.
 */
describe.each(TEST_DATABASES)('spend control (%s)', (database) => {
  let t: TestGateway;
  beforeAll(async () => {
    // One hold per call, as a quiet caller or one near its limit has: bursts held in leases are spend-leases.test.ts's.
    t = await startTestGateway({ database, env: { GATEWAY_SPEND_LEASES: 'off' } });
  });
  afterAll(() => t?.close());

  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  /** A fresh account with one key in a project and for a member. */
  const account = async (name: string) => {
    const acct = (await admin('/api/admin/accounts', 'POST', { name })).body.id as string;
    const made = await admin('/api/admin/keys', 'POST', { name: `${name}-key`, account_id: acct, project: 'p', member: 'm' });
    expect(made.status).toBe(201);
    const client = new OpenAI({ apiKey: made.body.key, baseURL: t.baseURL, maxRetries: 0 });
    return { id: acct, key: made.body.key as string, keyId: made.body.id as string, projectId: made.body.project_id as string, memberId: made.body.member_id as string, client };
  };

  const upstreamCalls = async () => (await simulatorRequests(t)).requests.length;

  /** The account's wallet once `ready` holds; fails, showing the last wallet read, when it does not within 10 s. */
  const walletWhen = (accountId: string, ready: (w: any) => boolean, what: string) =>
    readUntil(async () => (await admin(`/api/admin/accounts/${accountId}/wallet`)).body, ready, `the wallet of ${accountId} ${what}`, 10_000, 50);

  const expectReconciled = async (accountId?: string) => {
    const report = await admin(`/api/admin/reconcile${accountId ? `?account_id=${accountId}` : ''}`);
    expect(report.status).toBe(200);
    expect(report.body.checks.filter((c: { ok: boolean }) => !c.ok)).toEqual([]);
    expect(report.body.ok).toBe(true);
    return report.body;
  };

  it('holds before the call, settles at the record\'s amount, and the wallet is the sum of its ledger', async () => {
    const a = await account('settle');
    expect((await admin(`/api/admin/accounts/${a.id}/wallet`)).body).toMatchObject({ spend_controlled: false, balance_microusd: 0 });
    const topUp = await admin(`/api/admin/accounts/${a.id}/wallet/top-ups`, 'POST', { amount_microusd: 100_000, note: 'first' });
    expect(topUp).toMatchObject({ status: 201, body: { wallet: { spend_controlled: true, balance_microusd: 100_000, held_microusd: 0, credit_limit_microusd: 0 } } });

    const { data, response } = await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello there' }], max_tokens: 50 }).withResponse();
    expect(data.choices[0]!.message.content).toBeTruthy();
    const requestId = response.headers.get('x-svc-request-id')!;
    const record = await fetchUsageRecord(t, a.key, requestId);
    const charged = record.body.billing.amount_microusd as number;
    expect(charged).toBeGreaterThan(0);

    const ledger = (await admin(`/api/admin/accounts/${a.id}/ledger`)).body;
    const mine = ledger.data.filter((e: { request_id: string }) => e.request_id === requestId);
    const hold = mine.find((e: { kind: string }) => e.kind === 'hold');
    const settle = mine.find((e: { kind: string }) => e.kind === 'settle');
    expect(hold).toMatchObject({ key_id: a.keyId, project_id: a.projectId, member_id: a.memberId });
    expect(-hold.amount_microusd).toBeGreaterThanOrEqual(charged);
    expect(settle).toMatchObject({ hold_id: hold.id, charged_microusd: charged, amount_microusd: -hold.amount_microusd - charged });
    expect((await admin(`/api/admin/accounts/${a.id}/wallet`)).body).toMatchObject({ balance_microusd: 100_000 - charged, held_microusd: 0 });
    await expectReconciled(a.id);
  });

  it('refuses a call the wallet cannot cover, before any upstream call', async () => {
    const a = await account('broke');
    await admin(`/api/admin/accounts/${a.id}/wallet/top-ups`, 'POST', { amount_microusd: 50 });
    const before = await upstreamCalls();
    // No max_tokens: the worst case is the model's whole output (32,768 tokens at $1.60 per million), far over 50 micro-USD.
    const err = await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err.status).toBe(402);
    expect(err.error).toMatchObject({ code: 'insufficient_balance', type: 'invalid_request_error' });
    expect(err.error.message).toMatch(/top up/i);
    expect(await upstreamCalls()).toBe(before);
    const record = await fetchUsageRecord(t, a.key, err.headers.get('x-svc-request-id'));
    expect(record.body).toMatchObject({ billing: { amount_microusd: 0 }, routing: { status_code: 402 } });
    // A small enough cap fits.
    const ok = await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 });
    expect(ok.choices).toHaveLength(1);
    await expectReconciled(a.id);
  });

  it('checks every budget over the key: a hard one refuses and names itself, a soft one lets the call through', async () => {
    const a = await account('budgets');
    const soft = await admin(`/api/admin/accounts/${a.id}/budgets`, 'POST', { scope: 'account', period: 'monthly', limit_microusd: 1, mode: 'soft' });
    expect(soft).toMatchObject({ status: 201, body: { scope: 'account', scope_id: a.id, period: 'monthly', mode: 'soft', limit_microusd: 1 } });
    // A budget alone puts the account under spend control with a wallet that never refuses.
    expect((await admin(`/api/admin/accounts/${a.id}/wallet`)).body).toMatchObject({ spend_controlled: true, credit_limit_microusd: null });
    await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 });

    const hard = await admin(`/api/admin/accounts/${a.id}/budgets`, 'POST', { scope: 'project', scope_id: a.projectId, period: 'daily', limit_microusd: 2_000, mode: 'hard' });
    expect(hard.status).toBe(201);
    const before = await upstreamCalls();
    const err = await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5_000 }).catch((e) => e);
    expect(err.status).toBe(402);
    expect(err.error).toMatchObject({ code: 'budget_exceeded' });
    expect(err.error.details).toMatchObject({ budget_id: hard.body.id, scope: 'project', scope_id: a.projectId, period: 'daily', limit_microusd: 2_000 });
    expect(err.error.message).toContain(`daily budget of project ${a.projectId}`);
    expect(await upstreamCalls()).toBe(before);

    const listed = (await admin(`/api/admin/accounts/${a.id}/budgets`)).body.data;
    const accountBudget = listed.find((b: { id: string }) => b.id === soft.body.id);
    expect(accountBudget.spent_microusd).toBeGreaterThan(1);
    expect(accountBudget.remaining_microusd).toBe(0);

    // Raising the limit takes effect at once; removing it too.
    expect((await admin(`/api/admin/budgets/${hard.body.id}`, 'PATCH', { limit_microusd: 1_000_000 })).body.limit_microusd).toBe(1_000_000);
    await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5_000 });
    expect((await admin(`/api/admin/budgets/${hard.body.id}`, 'DELETE')).body).toMatchObject({ deleted: true });
    expect((await admin(`/api/admin/budgets/${hard.body.id}`)).status).toBe(404);
    await expectReconciled(a.id);
  });

  it('releases the hold of a call that failed upstream, and of a stream the client abandoned charges what it used', async () => {
    const a = await account('failures');
    await admin(`/api/admin/accounts/${a.id}/wallet/top-ups`, 'POST', { amount_microusd: 1_000_000 });
    const err = await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Boom [sim status=500]' }], max_tokens: 20 }).catch((e) => e);
    expect(err.status).toBeGreaterThanOrEqual(500);
    const requestId = err.headers.get('x-svc-request-id');
    const kinds = (await admin(`/api/admin/accounts/${a.id}/ledger`)).body.data.filter((e: { request_id: string }) => e.request_id === requestId).map((e: { kind: string }) => e.kind);
    expect(kinds.sort()).toEqual(['hold', 'release']);

    const { data: stream, response } = await a.client.chat.completions
      .create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Long one [sim words=400 pace=5]' }], max_tokens: 1_000, stream: true })
      .withResponse();
    let chunks = 0;
    for await (const _chunk of stream) if (++chunks === 3) break;
    const wallet = await walletWhen(a.id, (w) => w.held_microusd === 0, 'to hold nothing');
    expect(wallet.balance_microusd).toBeLessThan(1_000_000);
    const streamed = (await admin(`/api/admin/accounts/${a.id}/ledger`)).body.data.filter((e: { request_id: string }) => e.request_id === response.headers.get('x-svc-request-id'));
    const record = await fetchUsageRecord(t, a.key, response.headers.get('x-svc-request-id')!);
    expect(streamed.find((e: { kind: string }) => e.kind === 'settle')?.charged_microusd).toBe(record.body.billing.amount_microusd);
    await expectReconciled(a.id);
  });

  it('keeps the wallet to its credit limit and moves money only through ledger entries', async () => {
    const a = await account('credit');
    expect((await admin(`/api/admin/accounts/${a.id}/wallet`, 'PATCH', { credit_limit_microusd: 20_000 })).body).toMatchObject({ balance_microusd: 0, credit_limit_microusd: 20_000 });
    await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 });
    const adjust = await admin(`/api/admin/accounts/${a.id}/wallet/adjustments`, 'POST', { amount_microusd: -30_000, note: 'goodwill reversed' });
    expect(adjust.status).toBe(201);
    const err = await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 }).catch((e) => e);
    expect(err.error?.code).toBe('insufficient_balance');
    const kinds = (await admin(`/api/admin/accounts/${a.id}/ledger?limit=2`)).body;
    expect(kinds).toMatchObject({ has_more: true, data: [{ kind: 'adjustment', note: 'goodwill reversed', amount_microusd: -30_000 }, { kind: 'settle' }] });
    const older = (await admin(`/api/admin/accounts/${a.id}/ledger?limit=2&before=${kinds.next_before}`)).body;
    expect(older.data[0]).toMatchObject({ kind: 'hold' });
    await expectReconciled(a.id);
    await expectReconciled();
  });

  it('refunds a settled charge to its wallet, key budget and usage record, never more than was charged', async () => {
    const a = await account('refunds');
    await admin(`/api/admin/accounts/${a.id}/wallet/top-ups`, 'POST', { amount_microusd: 1_000_000 });
    const budget = (await admin(`/api/admin/accounts/${a.id}/budgets`, 'POST', { scope: 'key', scope_id: a.keyId, period: 'monthly', limit_microusd: 900_000 })).body;
    const { response } = await a.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello [sim words=50]' }], max_tokens: 100 }).withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    const charged = (await fetchUsageRecord(t, a.key, requestId)).body.billing.amount_microusd as number;
    expect(charged).toBeGreaterThan(1);

    const part = await admin('/api/admin/refunds', 'POST', { request_id: requestId, amount_microusd: 1, note: 'goodwill' });
    expect(part).toMatchObject({ status: 201, body: { request_id: requestId, refunded_microusd: 1, wallet: { balance_microusd: 1_000_000 - charged + 1 } } });
    const tooMuch = await admin('/api/admin/refunds', 'POST', { request_id: requestId, amount_microusd: charged });
    expect(tooMuch).toMatchObject({ status: 400, body: { error: { code: 'invalid_parameter', param: 'amount_microusd' } } });
    expect(tooMuch.body.error.message).toContain(`(${charged - 1} micro-USD)`);
    const rest = await admin('/api/admin/refunds', 'POST', { request_id: requestId });
    expect(rest.body).toMatchObject({ refunded_microusd: charged - 1, wallet: { balance_microusd: 1_000_000 } });
    expect((await admin('/api/admin/refunds', 'POST', { request_id: requestId })).body.error.code).toBe('nothing_to_refund');

    const record = (await fetchUsageRecord(t, a.key, requestId)).body;
    expect(record.billing).toMatchObject({ amount_microusd: 0, state: 'refunded' });
    expect(record.billing.line_items.filter((i: { dimension: string }) => i.dimension === 'refund').map((i: { amount_microusd: number }) => i.amount_microusd)).toEqual([-1, -(charged - 1)]);
    expect((await admin(`/api/admin/budgets/${budget.id}`)).body.spent_microusd).toBe(0);
    const refunds = (await admin(`/api/admin/accounts/${a.id}/ledger`)).body.data.filter((e: { kind: string }) => e.kind === 'refund');
    expect(refunds).toHaveLength(2);
    expect(refunds[1]).toMatchObject({ request_id: requestId, key_id: a.keyId, note: 'goodwill', amount_microusd: 1, charged_microusd: -1 });
    expect((await admin('/api/admin/refunds', 'POST', { request_id: 'req_unknown' })).body.error.code).toBe('nothing_to_refund');
    await expectReconciled(a.id);
  });

  it('keeps every invariant after a load run with upstream errors, cut streams and clients that leave', async () => {
    const a = await account('load');
    await admin(`/api/admin/accounts/${a.id}/wallet/top-ups`, 'POST', { amount_microusd: 50_000_000 });
    await admin(`/api/admin/accounts/${a.id}/budgets`, 'POST', { scope: 'key', scope_id: a.keyId, period: 'daily', limit_microusd: 40_000_000 });
    await faultyChatLoad(t.url, a.key);
    await walletWhen(a.id, (w) => w.held_microusd === 0, 'to hold nothing');
    const report = await expectReconciled(a.id);
    expect(report.open_holds.count).toBe(0);
    const ledger = (await admin(`/api/admin/accounts/${a.id}/ledger?limit=500`)).body.data as Array<{ kind: string }>;
    const count = (kind: string) => ledger.filter((e) => e.kind === kind).length;
    // A client that leaves within 60 ms may leave before its hold is placed (then nothing is held or charged).
    expect(count('hold')).toBeGreaterThanOrEqual(50);
    expect(count('settle') + count('release')).toBe(count('hold'));
    expect(count('release')).toBeGreaterThanOrEqual(20);
    expect(count('settle')).toBeGreaterThanOrEqual(20);
  });

  it.each([
    ['a top-up of nothing', (a: string) => [`/api/admin/accounts/${a}/wallet/top-ups`, 'POST', { amount_microusd: 0 }], 400, 'invalid_parameter'],
    ['a fractional top-up', (a: string) => [`/api/admin/accounts/${a}/wallet/top-ups`, 'POST', { amount_microusd: 1.5 }], 400, 'invalid_parameter'],
    ['a top-up as a string', (a: string) => [`/api/admin/accounts/${a}/wallet/top-ups`, 'POST', { amount_microusd: '100' }], 400, 'invalid_parameter'],
    ['a top-up over a billion dollars', (a: string) => [`/api/admin/accounts/${a}/wallet/top-ups`, 'POST', { amount_microusd: 2e15 }], 400, 'invalid_parameter'],
    ['an adjustment without a note', (a: string) => [`/api/admin/accounts/${a}/wallet/adjustments`, 'POST', { amount_microusd: 5 }], 400, 'invalid_parameter'],
    ['a negative credit limit', (a: string) => [`/api/admin/accounts/${a}/wallet`, 'PATCH', { credit_limit_microusd: -1 }], 400, 'invalid_parameter'],
    ['a budget on a key of another account', (a: string) => [`/api/admin/accounts/${a}/budgets`, 'POST', { scope: 'key', scope_id: 'key_other', period: 'daily', limit_microusd: 5 }], 400, 'invalid_parameter'],
    ['a budget with an unknown period', (a: string) => [`/api/admin/accounts/${a}/budgets`, 'POST', { scope: 'account', period: 'weekly', limit_microusd: 5 }], 400, 'invalid_parameter'],
    ['a key budget without its key', (a: string) => [`/api/admin/accounts/${a}/budgets`, 'POST', { scope: 'key', period: 'daily', limit_microusd: 5 }], 400, 'invalid_parameter'],
    ['an unknown field', (a: string) => [`/api/admin/accounts/${a}/budgets`, 'POST', { scope: 'account', period: 'daily', limit_microusd: 5, currency: 'EUR' }], 400, 'invalid_parameter'],
    ['the wallet of an unknown account', () => ['/api/admin/accounts/acct_nope/wallet', 'GET', undefined], 404, 'account_not_found'],
    ['an unknown budget', () => ['/api/admin/budgets/budget_nope', 'GET', undefined], 404, 'budget_not_found'],
    ['a ledger page past the limit', (a: string) => [`/api/admin/accounts/${a}/ledger?limit=501`, 'GET', undefined], 400, 'invalid_parameter'],
    ['a ledger cursor that is no id', (a: string) => [`/api/admin/accounts/${a}/ledger?before=abc`, 'GET', undefined], 400, 'invalid_parameter'],
    ['reconcile of an unknown account', () => ['/api/admin/reconcile?account_id=acct_nope', 'GET', undefined], 404, 'account_not_found'],
    ['a method a route does not take', (a: string) => [`/api/admin/accounts/${a}/wallet`, 'DELETE', undefined], 405, 'method_not_allowed'],
  ] as const)('answers %s with %i', async (_name, request, status, code) => {
    const acct = (await admin('/api/admin/accounts', 'POST', { name: 'bad-input' })).body.id as string;
    const [path, method, body] = request(acct) as [string, string, unknown];
    const res = await admin(path, method, body);
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status, code });
    expect((await admin(`/api/admin/accounts/${acct}/wallet`)).body.balance_microusd).toBe(0);
  });

  it('is for the admin token only', async () => {
    const a = await account('not-admin');
    const res = await fetch(`${t.url}/api/admin/accounts/${a.id}/wallet/top-ups`, {
      method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount_microusd: 1_000_000 }),
    });
    expect(res.status).toBe(401);
    expect((await admin(`/api/admin/accounts/${a.id}/wallet`)).body.spend_controlled).toBe(false);
  });
});
