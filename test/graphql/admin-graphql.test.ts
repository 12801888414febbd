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

  it("changes a key's models and domains on every door at once, and lists its temporary credentials under it", async () => {
    const created = (await gql('mutation { createKey(input: {name: "narrowed", models: ["gpt-4.1-mini"]}) { id key parentKeyId } }')).data.createKey;
    expect(created.parentKeyId).toBeNull();
    const chat = (model: string) => fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 }),
    });
    expect((await chat('claude-haiku-4-5')).status).toBe(403);

    const widened = await gql('mutation ($id: ID!) { updateKey(id: $id, input: {models: ["gpt-4.1-mini", "claude-haiku-4-5"]}) { models allowedDomains } }', { id: created.id });
    expect(widened.data.updateKey).toEqual({ models: ['gpt-4.1-mini', 'claude-haiku-4-5'], allowedDomains: [] });
    expect((await chat('claude-haiku-4-5')).status).toBe(200);
    // A field left out stays as it is; an empty list is every model.
    const domains = await gql('mutation ($id: ID!) { updateKey(id: $id, input: {allowedDomains: ["example.com"]}) { models allowedDomains } }', { id: created.id });
    expect(domains.data.updateKey).toEqual({ models: ['gpt-4.1-mini', 'claude-haiku-4-5'], allowedDomains: ['example.com'] });
    expect((await gql('mutation ($id: ID!) { updateKey(id: $id, input: {models: []}) { models } }', { id: created.id })).data.updateKey.models).toEqual([]);
    expect((await chat('gpt-4.1')).status).toBe(200);

    const minted = await fetch(`${t.url}/api/credentials`, {
      method: 'POST', headers: { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ allowed_domains: ['example.com'] }),
    });
    const credential = (await minted.json()) as { id: string };
    const keys = (await gql('query { keys { id parentKeyId } }')).data.keys as Array<{ id: string; parentKeyId: string | null }>;
    expect(keys.find((k) => k.id === credential.id)?.parentKeyId).toBe(created.id);
  });

  it.each([
    ['a top-up of nothing', 'mutation { topUpWallet(accountId: "acct_default", amountMicrousd: 0) { entryId } }', 'invalid_parameter', 400],
    ['a top-up of a negative amount', 'mutation { topUpWallet(accountId: "acct_default", amountMicrousd: -5000000) { entryId } }', 'invalid_parameter', 400],
    ['an unknown account', 'query { wallet(accountId: "acct_nope") { balanceMicrousd } }', 'account_not_found', 404],
    ['an adjustment without a note', 'mutation { adjustWallet(accountId: "acct_default", amountMicrousd: 5, note: " ") { entryId } }', 'invalid_parameter', 400],
    ['a negative credit limit', 'mutation { setCreditLimit(accountId: "acct_default", creditLimitMicrousd: -1) { creditLimitMicrousd } }', 'invalid_parameter', 400],
    ['a budget with an unknown period', 'mutation { createBudget(accountId: "acct_default", input: {scope: "account", period: "weekly", limitMicrousd: 5}) { id } }', 'invalid_parameter', 400],
    ['a budget on an unknown key', 'mutation { createBudget(accountId: "acct_default", input: {scope: "key", scopeId: "key_nope", period: "daily", limitMicrousd: 5}) { id } }', 'invalid_parameter', 400],
    ['an unknown budget', 'mutation { deleteBudget(id: "budget_nope") { deleted } }', 'budget_not_found', 404],
    ['a ledger page past the limit', 'query { ledger(accountId: "acct_default", first: 501) { hasMore } }', 'invalid_parameter', 400],
    ['a refund of a request never charged', 'mutation { refund(requestId: "req_nope") { entryId } }', 'nothing_to_refund', 409],
    ['a key change that names nothing', 'mutation { updateKey(id: "key_nope", input: {}) { id } }', 'invalid_parameter', 400],
    ['a key change of an unknown key', 'mutation { updateKey(id: "key_nope", input: {models: ["gpt-4.1-mini"]}) { id } }', 'key_not_found', 404],
    ['a key change to an empty model name', 'mutation { updateKey(id: "key_nope", input: {models: [""]}) { id } }', 'invalid_parameter', 400],
    ['a key change to a domain that is not one', 'mutation { updateKey(id: "key_nope", input: {allowedDomains: ["not a domain"]}) { id } }', 'invalid_parameter', 400],
    ['a project without a name', 'mutation { createProject(accountId: "acct_default", name: "  ") { id } }', 'invalid_parameter', 400],
    ['a key for an unknown account', 'mutation { createKey(input: {name: "lost", accountId: "acct_nope"}) { id } }', 'account_not_found', 404],
  ])('refuses %s with its gateway code', async (_name, query, code, status) => {
    await t.createKey({ name: 'default-account-exists' });
    const res = await gql(query);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code, status });
    expect(res.errors?.[0]?.message).not.toBe('internal error');
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
