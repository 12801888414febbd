import { pgliteDatabase } from '../../test/support/pglite-database';
import { AccountStore } from '../keys/account-store';
import { KeyStore } from '../keys/key-store';
import { AccountAdmin } from './account-admin';
import { KeyAdmin } from './key-admin';

/** The refusal a promise ends with, as the admin doors show it. */
async function refusal(work: Promise<unknown>): Promise<{ code: string; status: number; param: string | null | undefined; message: string }> {
  const err = await work.then(() => {
    throw new Error('expected a refusal');
  }, (e: { code: string; status: number; options: { param?: string | null }; message: string }) => e);
  return { code: err.code, status: err.status, param: err.options.param, message: err.message };
}

describe('KeyAdmin and AccountAdmin (PGlite)', () => {
  const database = pgliteDatabase();
  const services = () => {
    const db = database();
    return { keys: new KeyAdmin(new KeyStore(db, 30_000)), accounts: new AccountAdmin(new AccountStore(db)) };
  };

  it('creates a key with its secret once, lists it without the secret, narrows its domains and revokes it', async () => {
    const { keys } = services();
    const created = await keys.create({ name: ' ci ', models: ['alpha'], allowed_domains: ['example.com'] });
    expect(created.key).toMatch(/^sk-gw-/);
    expect(created).toMatchObject({ name: 'ci', models: ['alpha'], allowed_domains: ['example.com'], revoked_at: null });
    const listed = (await keys.list()).find((k) => k.id === created.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('key');
    expect((await keys.update(created.id, { allowed_domains: null })).allowed_domains).toEqual([]);
    // A field left out stays as it is.
    expect(await keys.update(created.id, { models: ['alpha', 'beta', 'alpha'] })).toMatchObject({ models: ['alpha', 'beta'], allowed_domains: [] });
    expect(await keys.update(created.id, { allowed_domains: ['example.org'] })).toMatchObject({ models: ['alpha', 'beta'], allowed_domains: ['example.org'] });
    expect((await keys.update(created.id, { models: null })).models).toEqual([]);
    expect((await keys.revoke(created.id)).revoked_at).not.toBeNull();
  });

  it('refuses alike for both doors: bad bodies, a past expiry, an unknown account, an unknown key', async () => {
    const { keys } = services();
    expect(await refusal(keys.create({ name: '' }))).toMatchObject({ code: 'invalid_parameter', status: 400, param: 'name' });
    expect(await refusal(keys.create({ name: 'late', expires_at: '2001-01-01T00:00:00Z' }))).toEqual({
      code: 'invalid_parameter', status: 400, param: 'expires_at', message: '"expires_at" must be in the future.',
    });
    expect(await refusal(keys.create({ name: 'lost', account_id: 'acct_nobody' }))).toEqual({
      code: 'account_not_found', status: 404, param: 'account_id', message: 'No account "acct_nobody".',
    });
    expect(await refusal(keys.update('key_missing', { allowed_domains: [] }))).toMatchObject({ code: 'key_not_found', status: 404, message: 'No API key "key_missing".' });
    expect(await refusal(keys.update('key_missing', { allowed_domains: [], extra: 1 }))).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(await refusal(keys.update('key_missing', {}))).toMatchObject({ code: 'invalid_parameter', status: 400, param: null, message: 'The change names nothing: send "models", "allowed_domains", "mcp_tools" or several.' });
    expect(await refusal(keys.update('key_missing', { models: [''] }))).toMatchObject({ code: 'invalid_parameter', param: 'models[0]' });
    expect(await refusal(keys.revoke('not an id'))).toMatchObject({ code: 'key_not_found', status: 404, message: 'No API key "not an id".' });
  });

  it('makes a project or member once and answers the existing one after, inside an existing account only', async () => {
    const { accounts } = services();
    const account = await accounts.create({ name: 'Acme' });
    const first = await accounts.owner(account.id, 'project', { name: 'web' });
    const again = await accounts.owner(account.id, 'project', { name: ' web ' });
    expect(first.created).toBe(true);
    expect(again).toEqual({ owner: first.owner, created: false });
    expect((await accounts.owner(account.id, 'member', { name: 'web' })).owner.object).toBe('member');
    const detail = await accounts.get(account.id);
    expect(detail.projects.map((p) => p.name)).toEqual(['web']);
    expect(detail.members.map((m) => m.name)).toEqual(['web']);
    expect(await accounts.find('acct_nobody')).toBeNull();
    expect(await refusal(accounts.get('acct_nobody'))).toMatchObject({ code: 'account_not_found', status: 404, message: 'No account "acct_nobody". GET /api/admin/accounts lists them.' });
    expect(await refusal(accounts.owner('acct_nobody', 'member', { name: 'x' }))).toMatchObject({ code: 'account_not_found' });
    expect(await refusal(accounts.create({ name: '   ' }))).toMatchObject({ code: 'invalid_parameter', param: 'name' });
  });
});
