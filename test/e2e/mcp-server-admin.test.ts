import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpServer, weatherTools, searchTools, type TestMcpServer } from '../support/mcp-test-servers';
import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

let weather: TestMcpServer;
let search: TestMcpServer;

beforeAll(async () => {
  weather = await startMcpServer('weather', weatherTools);
  search = await startMcpServer('search', searchTools);
});

afterAll(async () => {
  await weather.close();
  await search.close();
});

/** The operator's MCP servers through the admin REST API and the admin GraphQL: each write a catalog revision, each server listed with its health. */
describe.each(TEST_DATABASES)('MCP servers in the admin API (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, env: { WEATHER_MCP_KEY: 'weather-secret' } });
    key = await t.createKey({ name: 'mcp-admin' });
  });

  afterAll(async () => {
    await t?.close();
  });

  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  const gql = async (query: string, variables: Record<string, unknown> = {}, token = ADMIN_TOKEN, path = '/api/admin/graphql') => {
    const res = await fetch(`${t.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as { data?: any; errors?: Array<{ message: string; extensions?: Record<string, any> }> };
  };

  async function toolNames(apiKey = key): Promise<{ names: string[]; unavailable: unknown }> {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
    const listed = await client.listTools();
    await client.close();
    return { names: listed.tools.map((tool) => tool.name).sort(), unavailable: listed._meta?.['model-gateway/unavailable_servers'] };
  }

  it('adds, lists with health, edits, disables and removes a server over REST, each a catalog revision', async () => {
    const revisionBefore = (await admin('/api/admin/catalog')).body.revision as number;
    const added = await admin('/api/admin/mcp/servers', 'POST', { name: 'weather', url: weather.url, private: true, price_per_call: '0.002' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      object: 'mcp_server', name: 'weather', url: weather.url, transport: 'streamable_http', auth: { type: 'none' }, private: true, enabled: true,
      price_per_call: '0.002', timeout_ms: 30_000, health: { last_success_at: null, last_failure_at: null, last_error: null },
    });
    const catalog = (await admin('/api/admin/catalog')).body;
    expect(catalog.revision).toBe(revisionBefore + 1);
    expect(catalog.document.mcp.servers).toEqual([{ name: 'weather', url: weather.url, private: true, price_per_call: '0.002' }]);

    expect((await toolNames()).names).toEqual(['weather__alerts', 'weather__forecast']);
    const listed = (await admin('/api/admin/mcp/servers')).body;
    expect(listed.object).toBe('list');
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0].health.last_success_at).toEqual(expect.any(String));
    expect(listed.data[0].health.last_failure_at).toBeNull();

    const edited = await admin('/api/admin/mcp/servers/weather', 'PATCH', { price_per_call: null, tool_prices: { forecast: '0.01' }, auth: { type: 'headers', headers: { 'X-Api-Key': 'WEATHER_MCP_KEY' } } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ price_per_call: null, tool_prices: { forecast: '0.01' }, auth: { type: 'headers' } });
    expect((await admin('/api/admin/catalog')).body.document.mcp.servers[0]).not.toHaveProperty('price_per_call');

    const off = await admin('/api/admin/mcp/servers/weather/enabled', 'PATCH', { enabled: false });
    expect(off.body.enabled).toBe(false);
    expect((await toolNames()).names).toEqual([]);
    expect((await admin('/api/admin/mcp/servers/weather/enabled', 'PATCH', { enabled: true })).body.enabled).toBe(true);
    expect((await toolNames()).names).toEqual(['weather__alerts', 'weather__forecast']);

    const removed = await admin('/api/admin/mcp/servers/weather', 'DELETE');
    expect(removed.body).toEqual({ object: 'mcp_server', name: 'weather', deleted: true });
    expect((await admin('/api/admin/mcp/servers')).body.data).toEqual([]);
    expect((await toolNames()).names).toEqual([]);
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const revision = (await admin('/api/admin/catalog')).body.revision as number;
    const unknown = await admin('/api/admin/mcp/servers/nowhere', 'PATCH', { enabled: false });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('mcp_server_not_found');
    expect((await admin('/api/admin/mcp/servers/nowhere', 'DELETE')).status).toBe(404);
    expect((await admin('/api/admin/mcp/servers/nowhere')).status).toBe(404);

    const badUrl = await admin('/api/admin/mcp/servers', 'POST', { name: 'bad', url: 'not a url' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.param).toBe('url');
    const ftp = await admin('/api/admin/mcp/servers', 'POST', { name: 'bad', url: 'ftp://example.com/mcp' });
    expect(ftp.status).toBe(400);
    const badName = await admin('/api/admin/mcp/servers', 'POST', { name: 'Bad_Name', url: 'https://example.com/mcp' });
    expect(badName.body.error.param).toBe('name');
    const unknownField = await admin('/api/admin/mcp/servers', 'POST', { name: 'odd', url: 'https://example.com/mcp', colour: 'red' });
    expect(unknownField.status).toBe(400);

    const noSecret = await admin('/api/admin/mcp/servers', 'POST', { name: 'secret', url: 'https://example.com/mcp', auth: { type: 'headers', headers: { 'X-Api-Key': 'NOT_SET_MCP_KEY' } } });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error.code).toBe('invalid_catalog');
    expect(noSecret.body.error.message).toMatch(/NOT_SET_MCP_KEY/);

    expect((await admin('/api/admin/mcp/servers', 'POST', { name: 'search', url: search.url, private: true })).status).toBe(201);
    const twice = await admin('/api/admin/mcp/servers', 'POST', { name: 'search', url: search.url, private: true });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('mcp_server_exists');
    const rename = await admin('/api/admin/mcp/servers/search', 'PATCH', { name: 'other' });
    expect(rename.body.error.param).toBe('name');
    const badTimeout = await admin('/api/admin/mcp/servers/search', 'PATCH', { timeout_ms: -1 });
    expect([badTimeout.status, badTimeout.body.error.param]).toEqual([400, 'timeout_ms']);
    expect((await admin('/api/admin/mcp/servers/search', 'PATCH', {})).status).toBe(400);
    expect((await admin('/api/admin/mcp/servers/search/enabled', 'PATCH', { enabled: 'yes' })).status).toBe(400);
    expect((await admin('/api/admin/catalog')).body.revision).toBe(revision + 1);
    expect((await fetch(`${t.url}/api/admin/mcp/servers`)).status).toBe(401);
    await admin('/api/admin/mcp/servers/search', 'DELETE');
  });

  it('takes a loopback server not declared private into the catalog, and refuses to call it: the SSRF rule, shown in its health', async () => {
    expect((await admin('/api/admin/mcp/servers', 'POST', { name: 'loopback', url: weather.url })).status).toBe(201);
    const callsBefore = weather.calls.length;
    const listed = await toolNames();
    expect(listed.names).toEqual([]);
    expect(listed.unavailable).toEqual([expect.objectContaining({ server: 'loopback', error: expect.stringMatching(/private|reserved/) })]);
    const health = (await admin('/api/admin/mcp/servers/loopback')).body.health;
    expect(health).toMatchObject({ last_success_at: null, last_failure_at: expect.any(String), last_error: expect.stringMatching(/declare it private/) });
    expect(weather.calls.length).toBe(callsBefore);
    await admin('/api/admin/mcp/servers/loopback', 'DELETE');
  });

  it('does the same over the admin GraphQL, refusing alike', async () => {
    const added = await gql('mutation ($input: AddMcpServerInput!) { addMcpServer(input: $input) { name url private enabled pricePerCall timeoutMs transport auth health { lastSuccessAt lastFailureAt lastError } } }', {
      input: { name: 'meteo', url: weather.url, private: true, pricePerCall: '0.002', timeoutMs: 5000 },
    });
    expect(added.errors).toBeUndefined();
    expect(added.data.addMcpServer).toEqual({
      name: 'meteo', url: weather.url, private: true, enabled: true, pricePerCall: '0.002', timeoutMs: 5000, transport: 'streamable_http', auth: { type: 'none' },
      health: { lastSuccessAt: null, lastFailureAt: null, lastError: null },
    });
    expect((await toolNames()).names).toEqual(['meteo__alerts', 'meteo__forecast']);
    const listed = await gql('{ mcpServers { name health { lastSuccessAt } } }');
    expect(listed.data.mcpServers).toEqual([{ name: 'meteo', health: { lastSuccessAt: expect.any(String) } }]);

    const updated = await gql('mutation { updateMcpServer(name: "meteo", input: { pricePerCall: null, toolPrices: { forecast: "0.01" } }) { pricePerCall toolPrices timeoutMs } }');
    expect(updated.data.updateMcpServer).toEqual({ pricePerCall: null, toolPrices: { forecast: '0.01' }, timeoutMs: 5000 });
    expect((await gql('mutation { setMcpServerEnabled(name: "meteo", enabled: false) { enabled } }')).data.setMcpServerEnabled.enabled).toBe(false);
    expect((await toolNames()).names).toEqual([]);

    const unknown = await gql('mutation { setMcpServerEnabled(name: "nowhere", enabled: false) { enabled } }');
    expect(unknown.errors?.[0].extensions?.code).toBe('mcp_server_not_found');
    const badUrl = await gql('mutation { addMcpServer(input: { name: "bad", url: "not a url" }) { name } }');
    expect(badUrl.errors?.[0].extensions).toMatchObject({ code: 'invalid_parameter' });
    expect(badUrl.errors?.[0].message).toMatch(/url/);
    const noSecret = await gql('mutation { addMcpServer(input: { name: "secret", url: "https://example.com/mcp", auth: { type: "headers", headers: { X: "NOT_SET_MCP_KEY" } } }) { name } }');
    expect(noSecret.errors?.[0].extensions?.code).toBe('invalid_catalog');

    expect((await gql('mutation { removeMcpServer(name: "meteo") { name deleted } }')).data.removeMcpServer).toEqual({ name: 'meteo', deleted: true });
    expect((await gql('{ mcpServers { name } }')).data.mcpServers).toEqual([]);
    expect((await gql('{ mcpServers { name } }', {}, 'wrong-token')).errors).toBeDefined();
  });

  it('sets a key\'s MCP tools over the admin GraphQL, and a credential minted over GraphQL never wider than its key', async () => {
    const created = await gql('mutation { createKey(input: { name: "gql-mcp", mcpTools: ["weather__*", "search__query"] }) { id key mcpTools } }');
    expect(created.errors).toBeUndefined();
    const made = created.data.createKey;
    expect(made.mcpTools).toEqual(['weather__*', 'search__query']);
    expect((await gql('mutation ($id: ID!) { updateKey(id: $id, input: { mcpTools: ["weather__forecast"] }) { mcpTools } }', { id: made.id })).data.updateKey.mcpTools).toEqual(['weather__forecast']);
    expect((await gql('mutation ($id: ID!) { setKeyMcpTools(id: $id, tools: null) { mcpTools } }', { id: made.id })).data.setKeyMcpTools.mcpTools).toBeNull();
    expect((await gql('mutation ($id: ID!) { setKeyMcpTools(id: $id, tools: ["weather__*"]) { mcpTools } }', { id: made.id })).data.setKeyMcpTools.mcpTools).toEqual(['weather__*']);
    const badPattern = await gql('mutation ($id: ID!) { setKeyMcpTools(id: $id, tools: ["no spaces"]) { mcpTools } }', { id: made.id });
    expect(badPattern.errors?.[0].extensions?.code).toBe('invalid_parameter');
    const keys = (await gql('{ keys { id mcpTools } }')).data.keys;
    expect(keys.find((k: { id: string }) => k.id === made.id).mcpTools).toEqual(['weather__*']);

    const mint = (tools: string[]) => gql('mutation ($input: CreateCredentialInput!) { createCredential(input: $input) { id mcpTools } }', { input: { mcpTools: tools } }, made.key, '/graphql');
    const wider = await mint(['search__query']);
    expect(wider.errors?.[0].extensions).toMatchObject({ code: 'invalid_parameter' });
    expect(wider.errors?.[0].message).toMatch(/mcp_tools/);
    const narrower = await mint(['weather__forecast']);
    expect(narrower.errors).toBeUndefined();
    expect(narrower.data.createCredential.mcpTools).toEqual(['weather__forecast']);
    const listed = await gql('{ credentials { id mcpTools } }', {}, made.key, '/graphql');
    expect(listed.data.credentials).toEqual([{ id: narrower.data.createCredential.id, mcpTools: ['weather__forecast'] }]);
  });
});
