import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** The admin API as GraphQL at /api/admin/graphql: the same calls as the admin REST routes, behind the admin token only. */
describe.each(TEST_DATABASES)('admin GraphQL (%s)', (database) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database });
  });
  afterAll(() => t?.close());

  const gql = async (query: string, variables: Record<string, unknown> = {}, token = ADMIN_TOKEN, path = '/api/admin/graphql') => {
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, ...((await res.json()) as { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }) };
  };

  it('runs an account from creation to reconcile: keys, wallet, budgets and ledger', async () => {
    const account = (await gql('mutation { createAccount(name: "Acme") { id name } }')).data.createAccount;
    const project = (await gql('mutation ($a: ID!) { createProject(accountId: $a, name: "search") { id kind accountId } }', { a: account.id })).data.createProject;
    expect(project).toMatchObject({ kind: 'project', accountId: account.id });
    const created = await gql('mutation ($input: CreateKeyInput!) { createKey(input: $input) { id key accountId projectId models } }', {
      input: { name: 'acme-search', accountId: account.id, project: 'search', models: ['gpt-4.1-mini'] },
    });
    expect(created.errors).toBeUndefined();
    const key = created.data.createKey;
    expect(key).toMatchObject({ accountId: account.id, projectId: project.id, models: ['gpt-4.1-mini'], key: expect.stringMatching(/^sk-/) });

    const topUp = await gql('mutation ($a: ID!) { topUpWallet(accountId: $a, amountMicrousd: 250000, note: "first") { entryId wallet { balanceMicrousd creditLimitMicrousd spendControlled } } }', { a: account.id });
    expect(topUp.data.topUpWallet.wallet).toEqual({ balanceMicrousd: 250_000, creditLimitMicrousd: 0, spendControlled: true });
    const budget = await gql('mutation ($a: ID!, $input: CreateBudgetInput!) { createBudget(accountId: $a, input: $input) { id scope scopeId period mode limitMicrousd remainingMicrousd } }', {
      a: account.id, input: { scope: 'key', scopeId: key.id, period: 'daily', limitMicrousd: 100_000 },
    });
    expect(budget.data.createBudget).toMatchObject({ scope: 'key', scopeId: key.id, period: 'daily', mode: 'hard', limitMicrousd: 100_000, remainingMicrousd: 100_000 });
    const changed = await gql('mutation ($id: ID!) { updateBudget(id: $id, limitMicrousd: 120000, mode: "soft") { limitMicrousd mode } }', { id: budget.data.createBudget.id });
    expect(changed.data.updateBudget).toEqual({ limitMicrousd: 120_000, mode: 'soft' });

    const chat = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 }),
    });
    expect(chat.status).toBe(200);
    const ledger = await gql('query ($a: ID!) { ledger(accountId: $a, first: 2) { entries { kind amountMicrousd chargedMicrousd requestId } hasMore nextBefore } }', { a: account.id });
    expect(ledger.data.ledger.entries.map((e: { kind: string }) => e.kind)).toEqual(['settle', 'hold']);
    expect(ledger.data.ledger.hasMore).toBe(true);
    const older = await gql('query ($a: ID!, $b: String) { ledger(accountId: $a, before: $b) { entries { kind note } } }', { a: account.id, b: ledger.data.ledger.nextBefore });
    expect(older.data.ledger.entries).toEqual([{ kind: 'top_up', note: 'first' }]);
    expect(ledger.data.ledger.entries[0].chargedMicrousd).toBeGreaterThan(0);
    const chatRequestId = chat.headers.get('x-svc-request-id')!;
    const refund = await gql('mutation ($r: String!) { refund(requestId: $r, note: "sorry") { requestId refundedMicrousd wallet { balanceMicrousd } } }', { r: chatRequestId });
    expect(refund.errors).toBeUndefined();
    expect(refund.data.refund.wallet.balanceMicrousd).toBe(250_000);
    expect((await gql('mutation ($r: String!) { refund(requestId: $r) { entryId } }', { r: chatRequestId })).errors?.[0]?.extensions?.code).toBe('nothing_to_refund');
    const report = await gql('query ($a: ID) { reconcile(accountId: $a) { ok checks { name ok violations } openHolds { count } } }', { a: account.id });
    expect(report.data.reconcile).toMatchObject({ ok: true, openHolds: { count: 0 } });
    expect(report.data.reconcile.checks).toHaveLength(5);

    expect((await gql('mutation ($id: ID!) { deleteBudget(id: $id) { deleted } }', { id: budget.data.createBudget.id })).data.deleteBudget.deleted).toBe(true);
    expect((await gql('query ($a: ID!) { accountBudgets(accountId: $a) { id } }', { a: account.id })).data.accountBudgets).toEqual([]);
    expect((await gql('mutation ($id: ID!) { revokeKey(id: $id) { revokedAt } }', { id: key.id })).data.revokeKey.revokedAt).not.toBeNull();
    expect((await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(401);
  });

  it.each([
    ['a top-up of nothing', 'mutation { topUpWallet(accountId: "acct_default", amountMicrousd: 0) { entryId } }', 'invalid_parameter'],
    ['an unknown account', 'query { wallet(accountId: "acct_nope") { balanceMicrousd } }', 'account_not_found'],
    ['an adjustment without a note', 'mutation { adjustWallet(accountId: "acct_default", amountMicrousd: 5, note: " ") { entryId } }', 'invalid_parameter'],
    ['a budget with an unknown period', 'mutation { createBudget(accountId: "acct_default", input: {scope: "account", period: "weekly", limitMicrousd: 5}) { id } }', 'invalid_parameter'],
    ['an unknown budget', 'mutation { deleteBudget(id: "budget_nope") { deleted } }', 'budget_not_found'],
    ['a ledger page past the limit', 'query { ledger(accountId: "acct_default", first: 501) { hasMore } }', 'invalid_parameter'],
  ])('refuses %s with its gateway code', async (_name, query, code) => {
    await t.createKey({ name: 'default-account-exists' });
    const res = await gql(query);
    expect(res.errors?.[0]?.extensions?.code).toBe(code);
    expect((await gql('query { wallet(accountId: "acct_default") { balanceMicrousd } }')).data.wallet.balanceMicrousd).toBe(0);
  });

  it('is for the admin token only, and the admin types are not in the keys\' schema', async () => {
    const key = await t.createKey({ name: 'not-admin' });
    const asKey = await gql('query { accounts { id } }', {}, key);
    expect(asKey.status).toBe(401);
    expect(asKey.errors?.[0]?.extensions?.code).toBe('invalid_admin_token');
    expect((await gql('query { accounts { id } }', {}, 'wrong')).status).toBe(401);
    const onKeysSchema = await gql('query { accounts { id } }', {}, key, '/graphql');
    expect(onKeysSchema.errors?.[0]?.message).toMatch(/Cannot query field "accounts"/);
  });
});
