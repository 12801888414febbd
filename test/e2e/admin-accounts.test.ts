import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** Accounts, their projects and members, and keys made for them, through the admin API. */
describe.each(TEST_DATABASES)('admin accounts (%s)', (database) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database });
  });
  afterAll(() => t?.close());

  const admin = async (path: string, method = 'GET', body?: unknown, token = ADMIN_TOKEN) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('makes an account, its projects and members, and keys for them', async () => {
    const created = await admin('/api/admin/accounts', 'POST', { name: 'Acme' });
    expect(created).toMatchObject({ status: 201, body: { id: expect.stringMatching(/^acct_[0-9a-f]{32}$/), object: 'account', name: 'Acme' } });
    const id = created.body.id as string;

    const project = await admin(`/api/admin/accounts/${id}/projects`, 'POST', { name: 'search' });
    expect(project).toMatchObject({ status: 201, body: { id: expect.stringMatching(/^proj_/), object: 'project', account_id: id, name: 'search' } });
    expect(await admin(`/api/admin/accounts/${id}/projects`, 'POST', { name: 'search' })).toMatchObject({ status: 200, body: { id: project.body.id } });
    const member = await admin(`/api/admin/accounts/${id}/members`, 'POST', { name: 'ada' });
    expect(member).toMatchObject({ status: 201, body: { object: 'member', name: 'ada' } });

    const key = await admin('/api/admin/keys', 'POST', { name: 'acme-search', account_id: id, project: 'search', member: 'ada' });
    expect(key).toMatchObject({ status: 201, body: { account_id: id, project_id: project.body.id, member_id: member.body.id } });

    const detail = await admin(`/api/admin/accounts/${id}`);
    expect(detail).toMatchObject({ status: 200, body: { id, name: 'Acme', active_keys: 1, projects: [{ id: project.body.id }], members: [{ id: member.body.id }] } });
    expect((await admin('/api/admin/accounts')).body.data.map((a: { id: string }) => a.id)).toContain(id);
  });

  it.each([
    ['an unknown account', '/api/admin/accounts/acct_nope', 'GET', undefined, 404, 'account_not_found'],
    ['a project for an unknown account', '/api/admin/accounts/acct_nope/projects', 'POST', { name: 'x' }, 404, 'account_not_found'],
    ['an account without a name', '/api/admin/accounts', 'POST', { name: '  ' }, 400, 'invalid_parameter'],
    ['a malformed id', '/api/admin/accounts/%00', 'GET', undefined, 404, 'account_not_found'],
    ['a method the route does not take', '/api/admin/accounts', 'DELETE', undefined, 405, 'method_not_allowed'],
  ])('answers %s with %i', async (_name, path, method, body, status, code) => {
    const res = await admin(path, method, body);
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status, code });
  });

  it('is for the admin token only', async () => {
    const key = await t.createKey({ name: 'not-admin' });
    expect((await admin('/api/admin/accounts', 'GET', undefined, key)).status).toBe(401);
  });
});
