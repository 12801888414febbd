import { instancesOnOneDatabase } from '../support/instances-on-one-database';
import type { GatewayProcess } from '../support/gateway-process';
import { ADMIN_TOKEN } from '../support/test-gateway';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CALLS_PER_INSTANCE = 100;

/**
 * The guarantee of spend control across instances: two gateways on one
 * PostgreSQL (and Redis) driven at once, far past a small hard budget and a
 * small prepaid wallet. Every hold is placed under the account's wallet
 * lock, so what the two charge together never passes either limit.
 */
describe('one budget and one wallet held by two instances at once', () => {
  const instances = instancesOnOneDatabase();
  let a: GatewayProcess;
  let b: GatewayProcess;

  beforeAll(async () => {
    const env = { REDIS_URL, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN };
    [a, b] = await Promise.all([instances.spawn(env), instances.spawn(env)]);
  });

  const admin = async (g: GatewayProcess, path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${g.url}${path}`, {
      method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as any;
  };

  /** Calls from both instances at once; returns each answer's status and error code. */
  const flood = async (key: string) => {
    const one = async (g: GatewayProcess, i: number) => {
      const res = await fetch(`${g.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: `Race ${i}` }], max_tokens: 100 }),
      });
      const body = (await res.json()) as { error?: { code: string } };
      return { status: res.status, code: body.error?.code ?? null, requestId: res.headers.get('x-svc-request-id')! };
    };
    return Promise.all(Array.from({ length: CALLS_PER_INSTANCE * 2 }, (_, i) => one(i % 2 ? b : a, i)));
  };

  const charged = async (key: string, requestIds: string[]) => {
    let total = 0;
    for (const id of requestIds) {
      const res = await fetch(`${a.url}/api/usage/requests/${id}`, { headers: { authorization: `Bearer ${key}` } });
      total += ((await res.json()) as { billing: { amount_microusd: number } }).billing.amount_microusd;
    }
    return total;
  };

  const newAccountKey = async (name: string) => {
    const account = (await admin(a, '/api/admin/accounts', 'POST', { name })).id as string;
    const made = await admin(b, '/api/admin/keys', 'POST', { name, account_id: account });
    return { account, key: made.key as string, keyId: made.id as string };
  };

  it('a hard key budget: the total charged never passes it', async () => {
    const { account, key, keyId } = await newAccountKey('budget-race');
    // Both instances have the key cached from before the account came under spend control...
    for (const g of [a, b]) expect((await fetch(`${g.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const LIMIT = 3_000;
    const budget = await admin(a, `/api/admin/accounts/${account}/budgets`, 'POST', { scope: 'key', scope_id: keyId, period: 'total', limit_microusd: LIMIT, mode: 'hard' });
    // ...and B hears of the change through Redis within the 1 s the guarantee gives.
    await new Promise((r) => setTimeout(r, 1_000));
    const answers = await flood(key);
    const ok = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 402);
    expect(refused.every((r) => r.code === 'budget_exceeded')).toBe(true);
    expect(ok.length + refused.length).toBe(answers.length);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const total = await charged(key, ok.map((r) => r.requestId));
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(LIMIT);
    const after = await admin(b, `/api/admin/budgets/${budget.id}`);
    expect(after).toMatchObject({ spent_microusd: total, held_microusd: 0 });
    expect((await admin(a, `/api/admin/reconcile?account_id=${account}`)).ok).toBe(true);
  });

  it('a prepaid wallet: the balance never goes below zero', async () => {
    const { account, key } = await newAccountKey('wallet-race');
    const BALANCE = 2_000;
    await admin(a, `/api/admin/accounts/${account}/wallet/top-ups`, 'POST', { amount_microusd: BALANCE });
    const answers = await flood(key);
    const ok = answers.filter((r) => r.status === 200);
    expect(answers.filter((r) => r.status !== 200).every((r) => r.status === 402 && r.code === 'insufficient_balance')).toBe(true);
    expect(ok.length).toBeGreaterThan(0);
    const total = await charged(key, ok.map((r) => r.requestId));
    expect(total).toBeLessThanOrEqual(BALANCE);
    expect(await admin(b, `/api/admin/accounts/${account}/wallet`)).toMatchObject({ balance_microusd: BALANCE - total, held_microusd: 0 });
    expect((await admin(b, `/api/admin/reconcile?account_id=${account}`)).ok).toBe(true);
  });
});
