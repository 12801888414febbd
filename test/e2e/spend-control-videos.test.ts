import { eventually } from '../support/eventually';
import { fastVideoConfig } from '../support/fast-video-config';
import { ADMIN_TOKEN, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** Video tasks under spend control: their price is held at submission and the hold ends, on the same ledger, when the task does. */
describe.each(TEST_DATABASES)('video tasks on the ledger (%s)', (database) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database, config: fastVideoConfig({ first_poll_after_ms: 0 }) });
  });
  afterAll(() => t?.close());

  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const accountWith = async (name: string, balance: number) => {
    const id = (await admin('/api/admin/accounts', 'POST', { name })).body.id as string;
    const key = (await admin('/api/admin/keys', 'POST', { name, account_id: id })).body.key as string;
    await admin(`/api/admin/accounts/${id}/wallet/top-ups`, 'POST', { amount_microusd: balance });
    return { id, key };
  };
  const submit = (key: string, prompt: string) =>
    fetch(`${t.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gen-imagine-video', prompt, duration: 6 }) });

  it('settles a completed task and releases a failed one', async () => {
    const a = await accountWith('videos', 1_000_000);
    const done = await submit(a.key, 'done [sim gen_ms=100]');
    const broken = await submit(a.key, 'broken [sim gen_ms=100 fail]');
    expect([done.status, broken.status]).toEqual([200, 200]);
    const wallet = await eventually(async () => {
      const w = (await admin(`/api/admin/accounts/${a.id}/wallet`)).body;
      return w.held_microusd === 0 ? w : undefined;
    }, 'both holds ended', 10_000, 50);
    expect(wallet.balance_microusd).toBe(1_000_000 - 300_000);
    const entries = (await admin(`/api/admin/accounts/${a.id}/ledger`)).body.data as Array<{ kind: string; charged_microusd: number; note: string | null; request_id: string }>;
    expect(entries.filter((e) => e.kind === 'hold')).toHaveLength(2);
    expect(entries.find((e) => e.kind === 'settle' && e.request_id === done.headers.get('x-svc-request-id'))?.charged_microusd).toBe(300_000);
    expect(entries.find((e) => e.kind === 'release' && e.request_id === broken.headers.get('x-svc-request-id'))?.note).toBe('task failed: refunded');
    expect((await admin(`/api/admin/reconcile?account_id=${a.id}`)).body.ok).toBe(true);
  });

  it('a deleted task leaves its charge, ledger entries and usage record as they were', async () => {
    const a = await accountWith('deleted-videos', 1_000_000);
    const res = await submit(a.key, 'kept on the books [sim gen_ms=100]');
    const id = ((await res.json()) as { request_id: string }).request_id;
    const requestId = res.headers.get('x-svc-request-id')!;
    await eventually(async () => ((await admin(`/api/admin/accounts/${a.id}/wallet`)).body.held_microusd === 0 ? true : undefined), 'the hold ended', 10_000, 50);
    const ledgerBefore = (await admin(`/api/admin/accounts/${a.id}/ledger`)).body.data;

    const deleted = await fetch(`${t.url}/v1/videos/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${a.key}` } });
    expect(deleted.status).toBe(200);
    expect((await fetch(`${t.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${a.key}` } })).status).toBe(404);

    expect((await admin(`/api/admin/accounts/${a.id}/wallet`)).body.balance_microusd).toBe(1_000_000 - 300_000);
    expect((await admin(`/api/admin/accounts/${a.id}/ledger`)).body.data).toEqual(ledgerBefore);
    const record = await fetch(`${t.url}/api/usage/requests/${requestId}`, { headers: { authorization: `Bearer ${a.key}` } });
    expect(record.status).toBe(200);
    expect(((await record.json()) as any).billing).toMatchObject({ state: 'settled', amount_microusd: 300_000 });
    expect((await admin(`/api/admin/reconcile?account_id=${a.id}`)).body.ok).toBe(true);
  });

  it('refuses a task the wallet cannot cover, creating nothing', async () => {
    const a = await accountWith('poor-videos', 100_000);
    const before = (await simulatorRequests(t)).requests.length;
    const res = await submit(a.key, 'too dear');
    expect(res.status).toBe(402);
    expect(((await res.json()) as any).error.code).toBe('insufficient_balance');
    expect((await simulatorRequests(t)).requests.length).toBe(before);
    const tasks = await t.gateway.db.query<{ n: number }>('SELECT count(*)::int AS "n" FROM "video_tasks" WHERE "account_id" = $1', [a.id]);
    expect(tasks.rows[0]!.n).toBe(0);
  });
});
