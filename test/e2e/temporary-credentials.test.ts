import OpenAI from 'openai';
import { eventually } from '../support/eventually';
import { instancesOnOneDatabase } from '../support/instances-on-one-database';
import { ADMIN_TOKEN, fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Keys minting short-lived credentials that are never wider than themselves, used with the real openai SDK. */
describe.each(TEST_DATABASES)('temporary credentials (%s)', (database) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database });
  });
  afterAll(() => t?.close());

  const call = async (key: string, path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, {
      method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const client = (key: string) => new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });

  it('authenticates like a key, narrower than its parent, and is named on the usage records', async () => {
    const parent = await t.createKey({ name: 'parent', models: ['gpt-4.1-mini', 'gpt-4.1'] });
    const minted = await call(parent, '/api/credentials', 'POST', { name: 'browser', models: ['gpt-4.1-mini'], expires_in: 600, allowed_domains: ['Example.com'] });
    expect(minted).toMatchObject({ status: 201, body: { object: 'credential', name: 'browser', models: ['gpt-4.1-mini'], allowed_domains: ['example.com'], budget: null, key: expect.stringMatching(/^sk-/) } });
    const expiresAt = Date.parse(minted.body.expires_at);
    expect(expiresAt).toBeGreaterThan(Date.now() + 590_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 600_000);

    const { data, response } = await client(minted.body.key).chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 }).withResponse();
    expect(data.choices).toHaveLength(1);
    const record = await fetchUsageRecord(t, minted.body.key, response.headers.get('x-svc-request-id')!);
    expect(record.body.credential).toEqual({ id: minted.body.id, parent_key_id: minted.body.parent_key_id });

    const wider = await client(minted.body.key).chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 }).catch((e) => e);
    expect(wider.status).toBe(403);
    expect(wider.error.code).toBe('model_not_allowed');

    // It cannot mint, list or revoke credentials itself.
    expect((await call(minted.body.key, '/api/credentials', 'POST', {})).body.error.code).toBe('credential_not_allowed');
    expect((await call(minted.body.key, '/api/credentials')).status).toBe(403);
    expect((await call(parent, '/api/credentials')).body.data.map((c: { id: string }) => c.id)).toEqual([minted.body.id]);
  });

  it('is refused what its parent may not have: models, and an expiry past the parent\'s', async () => {
    const soon = new Date(Date.now() + 120_000).toISOString();
    const parent = await t.createKey({ name: 'short', models: ['gpt-4.1-mini'], expires_at: soon });
    const wider = await call(parent, '/api/credentials', 'POST', { models: ['gpt-4.1'] });
    expect(wider).toMatchObject({ status: 400, body: { error: { code: 'invalid_parameter', param: 'models' } } });
    expect((await call(parent, '/api/credentials', 'POST', {})).body.error.param).toBe('models');
    const capped = await call(parent, '/api/credentials', 'POST', { models: ['gpt-4.1-mini'], expires_in: 7 * 24 * 3600 });
    expect(capped.status).toBe(201);
    expect(Date.parse(capped.body.expires_at)).toBe(Date.parse(soon));
  });

  it('spends within a budget of its own, and ends when revoked or when its parent is', async () => {
    const parentKey = await t.createKey({ name: 'budgeted' });
    const minted = await call(parentKey, '/api/credentials', 'POST', { budget_microusd: 2_000 });
    expect(minted.body.budget).toMatchObject({ scope: 'key', scope_id: minted.body.id, period: 'total', mode: 'hard', limit_microusd: 2_000 });
    const ok = await client(minted.body.key).chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 });
    expect(ok.choices).toHaveLength(1);
    const over = await client(minted.body.key).chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5_000 }).catch((e) => e);
    expect(over.status).toBe(402);
    expect(over.error).toMatchObject({ code: 'budget_exceeded', details: { scope: 'key', scope_id: minted.body.id } });
    // The parent itself is not bound by its credential's budget.
    expect((await client(parentKey).chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5_000 })).choices).toHaveLength(1);

    const second = await call(parentKey, '/api/credentials', 'POST', {});
    expect((await call(second.body.key, '/v1/models')).status).toBe(200);
    expect((await call(parentKey, `/api/credentials/${second.body.id}`, 'DELETE')).body.revoked_at).not.toBeNull();
    expect((await call(second.body.key, '/v1/models')).status).toBe(401);

    const other = await t.createKey({ name: 'other' });
    expect((await call(other, `/api/credentials/${minted.body.id}`, 'DELETE')).body.error.code).toBe('credential_not_found');
    expect((await call(minted.body.key, '/v1/models')).status).toBe(200);
    const parentId = minted.body.parent_key_id as string;
    const revoked = await fetch(`${t.url}/api/admin/keys/${parentId}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(revoked.status).toBe(200);
    expect((await call(minted.body.key, '/v1/models')).status).toBe(401);
  });

  it("is held to its parent's current domain allowlist, narrowed after minting, though it was cached", async () => {
    const search = async (key: string, body: Record<string, unknown>): Promise<{ status: number; code?: string; hosts?: string[] }> => {
      try {
        const answer = await client(key).post<{ results: Array<{ url: string }> }>('/search', { body: { backend: 'serper', ...body } });
        return { status: 200, hosts: answer.results.map((r) => new URL(r.url).hostname) };
      } catch (err) {
        if (!(err instanceof OpenAI.APIError)) throw err;
        return { status: err.status!, code: (err.error as { code?: string }).code };
      }
    };
    const mint = async (parent: string, body: Record<string, unknown>) => (await call(parent, '/api/credentials', 'POST', body)).body as { key: string; parent_key_id: string };
    const narrowParent = async (parentId: string, domains: string[]) => {
      const res = await fetch(`${t.url}/api/admin/keys/${parentId}`, {
        method: 'PATCH', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ allowed_domains: domains }),
      });
      expect(res.status).toBe(200);
    };

    const listed = await t.createKey({ name: 'listed', allowed_domains: ['example.com', 'example.org'] });
    const { key: orgOnly, parent_key_id: listedId } = await mint(listed, { allowed_domains: ['example.org'] });
    const { key: both } = await mint(listed, { allowed_domains: ['example.com', 'example.org'] });
    expect(await search(orgOnly, { query: 'before [sim offsite]', include_domains: ['example.org'] })).toMatchObject({ status: 200 });
    await narrowParent(listedId, ['docs.example.com']);
    expect(await search(orgOnly, { query: 'lost', include_domains: ['example.org'] })).toEqual({ status: 403, code: 'domain_not_allowed' });
    expect(await search(orgOnly, { query: 'nothing left [sim offsite]' })).toEqual({ status: 403, code: 'domain_not_allowed' });
    const narrowed = await search(both, { query: 'narrowed [sim offsite]' });
    expect(narrowed.hosts!.length).toBeGreaterThan(0);
    for (const host of narrowed.hosts!) expect(host).toBe('docs.example.com');

    const unlisted = await t.createKey({ name: 'unlisted' });
    const { key: anywhere, parent_key_id: unlistedId } = await mint(unlisted, {});
    expect((await search(anywhere, { query: 'before [sim offsite]' })).hosts!.some((host) => !host.endsWith('example.net'))).toBe(true);
    await narrowParent(unlistedId, ['example.net']);
    const listedNow = await search(anywhere, { query: 'after [sim offsite]' });
    expect(listedNow.hosts!.length).toBeGreaterThan(0);
    for (const host of listedNow.hosts!) expect(host).toMatch(/(^|\.)example\.net$/);
  });

  it.each([
    ['a lifetime under a minute', { expires_in: 10 }, 'expires_in'],
    ['a lifetime over 7 days', { expires_in: 8 * 24 * 3600 }, 'expires_in'],
    ['a domain that is no host name', { allowed_domains: ['https://x.com/a'] }, 'allowed_domains[0]'],
    ['a negative budget', { budget_microusd: -1 }, 'budget_microusd'],
    ['an unknown field', { scopes: ['all'] }, ''],
  ])('refuses %s', async (_name, body, param) => {
    const parent = await t.createKey({ name: 'bad' });
    const res = await call(parent, '/api/credentials', 'POST', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_parameter');
    if (param) expect(res.body.error.param).toBe(param);
    expect((await call(parent, '/api/credentials')).body.data).toEqual([]);
  });

  it('is for keys: no key, no credential', async () => {
    expect((await fetch(`${t.url}/api/credentials`, { method: 'POST' })).status).toBe(401);
  });
});

/** Two instances on one database and one Redis, each caching keys for a minute. */
describe("a temporary credential's scope on another instance", () => {
  const instances = instancesOnOneDatabase();

  it("narrows with its parent's allowlist on every instance, though it was cached there", async () => {
    const common = { REDIS_URL, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_KEY_CACHE_MS: '60000', GATEWAY_VIDEO_POLLER: 'false' };
    const [a, b] = await Promise.all([instances.spawn(common), instances.spawn(common)]);
    await eventually(async () => (b.output().includes('key revocations reach this instance through Redis') ? true : undefined), 'instance B subscribed to key changes');
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const parent = (await (await fetch(`${a.url}/api/admin/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'parent' }) })).json()) as { id: string; key: string };
    const minted = await fetch(`${a.url}/api/credentials`, { method: 'POST', headers: { authorization: `Bearer ${parent.key}`, 'content-type': 'application/json' }, body: '{}' });
    const onB = new OpenAI({ apiKey: ((await minted.json()) as { key: string }).key, baseURL: `${b.url}/v1`, maxRetries: 0 });
    const hosts = async (query: string) => (await onB.post<{ results: Array<{ url: string }> }>('/search', { body: { query, backend: 'serper' } })).results.map((r) => new URL(r.url).hostname);
    expect((await hosts('cached on B [sim offsite]')).some((host) => !host.endsWith('example.net'))).toBe(true);

    const patched = await fetch(`${a.url}/api/admin/keys/${parent.id}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ allowed_domains: ['example.net'] }) });
    expect(patched.status).toBe(200);
    await eventually(async () => {
      const seen = await hosts('narrowed on A [sim offsite]');
      return seen.length > 0 && seen.every((host) => /(^|\.)example\.net$/.test(host)) ? true : undefined;
    }, "instance B holding the credential to its parent's new allowlist", 2_000);
  });
});
