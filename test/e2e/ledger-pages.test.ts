import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/**
 * Ledger pages are ordered by the entry id as a number: a page of ids of
 * different digit counts (9 and 10 and up) comes back 15, 14, ... 10, 9, and
 * `before` walks every entry once, over REST and the admin GraphQL.
 */
describe.each(TEST_DATABASES)('ledger pages (%s)', (database) => {
  let t: TestGateway;
  let accountId: string;
  let topUpIds: string[];
  beforeAll(async () => {
    t = await startTestGateway({ database });
    accountId = (await admin('/api/admin/accounts', 'POST', { name: 'ledger-pages' })).body.id;
    topUpIds = [];
    for (let i = 1; i <= 15; i++) {
      topUpIds.push((await admin(`/api/admin/accounts/${accountId}/wallet/top-ups`, 'POST', { amount_microusd: i })).body.entry_id);
    }
  });
  afterAll(() => t?.close());

  async function admin(path: string, method = 'GET', body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }

  const newestFirst = () => [...topUpIds].sort((a, b) => Number(b) - Number(a));

  it('has entry ids of more than one digit count to order', () => {
    expect(new Set(topUpIds.map((id) => id.length)).size).toBeGreaterThan(1);
  });

  it('pages the REST ledger newest first by number, every entry once', async () => {
    const seen: string[][] = [];
    let before: string | null = null;
    do {
      const page: { status: number; body: any } = await admin(`/api/admin/accounts/${accountId}/ledger?limit=5${before ? `&before=${before}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(page.body.data.map((e: { id: string }) => e.id));
      before = page.body.next_before;
    } while (before && seen.length < 10);
    expect(seen.flat()).toEqual(newestFirst());
    expect(seen.map((ids) => ids.length)).toEqual([5, 5, 5]);
  });

  it('pages the admin GraphQL ledger the same way', async () => {
    const ids: string[] = [];
    let before: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const res: { status: number; body: any } = await admin('/api/admin/graphql', 'POST', {
        query: 'query ($a: ID!, $b: String) { ledger(accountId: $a, first: 5, before: $b) { entries { id } hasMore nextBefore } }',
        variables: { a: accountId, b: before },
      });
      expect(res.body.errors).toBeUndefined();
      ids.push(...res.body.data.ledger.entries.map((e: { id: string }) => e.id));
      before = res.body.data.ledger.nextBefore;
      if (!res.body.data.ledger.hasMore) break;
    }
    expect(ids).toEqual(newestFirst());
  });
});
