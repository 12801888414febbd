import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { BudgetsDocument, CreateCredentialDocument, CredentialsDocument, RevokeCredentialDocument } from './generated/graphql';
import { graphqlHttp } from './graphql-test-client';

/** A key's budgets and temporary credentials over GraphQL: only its own, and the same rules as REST. */
describe.each(TEST_DATABASES)('GraphQL spend control (%s)', (database) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database });
  });
  afterAll(() => t?.close());

  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${t.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as any;
  };

  it('shows a key the budgets over it and no other key\'s', async () => {
    const account = (await admin('/api/admin/accounts', { name: 'gql-budgets' })).id as string;
    const mine = await admin('/api/admin/keys', { name: 'mine', account_id: account, project: 'p' });
    const other = await admin('/api/admin/keys', { name: 'other', account_id: account });
    const onMine = await admin(`/api/admin/accounts/${account}/budgets`, { scope: 'key', scope_id: mine.id, period: 'daily', limit_microusd: 500 });
    const onProject = await admin(`/api/admin/accounts/${account}/budgets`, { scope: 'project', scope_id: mine.project_id, period: 'monthly', limit_microusd: 900, mode: 'soft' });
    const onOther = await admin(`/api/admin/accounts/${account}/budgets`, { scope: 'key', scope_id: other.id, period: 'total', limit_microusd: 1 });

    const seen = await graphqlHttp(t, mine.key, BudgetsDocument);
    expect(seen.errors).toBeUndefined();
    expect(seen.data!.budgets.map((b) => b.id).sort()).toEqual([onMine.id, onProject.id].sort());
    expect(seen.data!.budgets.find((b) => b.id === onMine.id)).toMatchObject({ scope: 'key', scopeId: mine.id, period: 'daily', mode: 'hard', limitMicrousd: 500, spentMicrousd: 0, remainingMicrousd: 500 });
    const theirs = await graphqlHttp(t, other.key, BudgetsDocument);
    expect(theirs.data!.budgets.map((b) => b.id)).toEqual([onOther.id]);
  });

  it('mints, lists and revokes a credential, refusing what is wider than the key', async () => {
    const key = await t.createKey({ name: 'gql-parent', models: ['gpt-4.1-mini'] });
    const minted = await graphqlHttp(t, key, CreateCredentialDocument, { input: { models: ['gpt-4.1-mini'], expiresIn: 300, budgetMicrousd: 1_000 } });
    expect(minted.errors).toBeUndefined();
    const credential = minted.data!.createCredential;
    expect(credential).toMatchObject({ key: expect.stringMatching(/^sk-/), models: ['gpt-4.1-mini'], budget: { scope: 'key', scopeId: credential.id, limitMicrousd: 1_000 } });
    expect((await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${credential.key}` } })).status).toBe(200);
    expect((await graphqlHttp(t, key, CredentialsDocument)).data!.credentials.map((c) => c.id)).toEqual([credential.id]);

    const wider = await graphqlHttp(t, key, CreateCredentialDocument, { input: { models: ['gpt-4.1'] } });
    expect(wider.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_parameter', param: 'models' });
    const fromCredential = await graphqlHttp(t, credential.key, CreateCredentialDocument, { input: {} });
    expect(fromCredential.errors?.[0]?.extensions).toMatchObject({ code: 'credential_not_allowed' });
    const tooLong = await graphqlHttp(t, key, CreateCredentialDocument, { input: { models: ['gpt-4.1-mini'], expiresIn: 10 } });
    expect(tooLong.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_parameter', param: 'expires_in' });

    const other = await t.createKey({ name: 'gql-other' });
    expect((await graphqlHttp(t, other, RevokeCredentialDocument, { id: credential.id })).errors?.[0]?.extensions).toMatchObject({ code: 'credential_not_found' });
    const revoked = await graphqlHttp(t, key, RevokeCredentialDocument, { id: credential.id });
    expect(revoked.data!.revokeCredential.revokedAt).not.toBeNull();
    expect((await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${credential.key}` } })).status).toBe(401);
  });
});
