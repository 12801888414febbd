import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { closedPortUrl, searchTools, startMcpServer, weatherTools, type TestMcpServer } from '../support/mcp-test-servers';
import { ADMIN_TOKEN, fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

const OAUTH = { clientId: 'gateway-client', clientSecret: 'gateway-secret-0123' };

let weather: TestMcpServer;
let search: TestMcpServer;
let downUrl: string;

beforeAll(async () => {
  weather = await startMcpServer('weather', weatherTools);
  search = await startMcpServer('search', searchTools, OAUTH);
  downUrl = await closedPortUrl();
});

afterAll(async () => {
  await weather.close();
  await search.close();
});

function mcpConfig(): GatewayConfigInput {
  const base = loadGatewayConfig({}).document as GatewayConfigInput;
  return {
    ...base,
    mcp: {
      servers: [
        { name: 'weather', url: weather.url, private: true, price_per_call: '0.002' },
        {
          name: 'search', url: search.url, private: true, tool_prices: { query: '0.01' },
          auth: { type: 'oauth_client_credentials', token_url: search.url.replace(/\/mcp$/, '/token'), client_id_env: 'SEARCH_MCP_CLIENT_ID', client_secret_env: 'SEARCH_MCP_CLIENT_SECRET', scope: 'tools' },
        },
        { name: 'down', url: downUrl, private: true, timeout_ms: 2_000 },
      ],
    },
  };
}

describe.each(TEST_DATABASES)('/mcp, the MCP gateway (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: mcpConfig(), env: { SEARCH_MCP_CLIENT_ID: OAUTH.clientId, SEARCH_MCP_CLIENT_SECRET: OAUTH.clientSecret } });
    key = await t.createKey({ name: 'mcp' });
  });

  afterAll(async () => {
    await t?.close();
  });

  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  /** The official SDK's client through the gateway; `requestIds` collects the gateway's request id of each answer. */
  async function connect(apiKey: string) {
    const requestIds: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        const id = res.headers.get('x-svc-request-id');
        if (id) requestIds.push(id);
        return res;
      },
    });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(transport);
    return { client, transport, requestIds, lastRequestId: () => requestIds[requestIds.length - 1] };
  }

  /** One raw JSON-RPC POST. */
  async function post(body: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
    return { status: res.status, headers: res.headers, body: res.status === 202 ? null : ((await res.json()) as any) };
  }

  it('negotiates the protocol revision in initialize and lists both servers\' tools, namespaced, naming the server that is down', async () => {
    const { client, transport } = await connect(key);
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(client.getServerVersion()).toMatchObject({ name: 'model-gateway' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
    const listed = await client.listTools();
    const names = listed.tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['search__query', 'weather__alerts', 'weather__forecast']);
    const forecast = listed.tools.find((tool) => tool.name === 'weather__forecast')!;
    expect(forecast.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
    expect(forecast.annotations).toEqual({ readOnlyHint: true });
    expect(listed._meta?.['model-gateway/unavailable_servers']).toEqual([expect.objectContaining({ server: 'down' })]);
    await client.close();

    const older = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    expect(older.body.result.protocolVersion).toBe('2025-06-18');
    const newer = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    expect(newer.body.result.protocolVersion).toBe('2025-11-25');
    const unserved = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }), { 'mcp-protocol-version': '2024-01-01' });
    expect(unserved.status).toBe(400);
  });

  it('calls a tool on each server (the OAuth one with the token the gateway fetched), one usage record per call', async () => {
    const { client, lastRequestId } = await connect(key);
    const issuedBefore = search.tokensIssued;
    const sunny = await client.callTool({ name: 'weather__forecast', arguments: { city: 'Paris' } });
    expect(sunny.content).toEqual([{ type: 'text', text: 'Sunny in Paris' }]);
    const weatherRecordId = lastRequestId();
    const found = await client.callTool({ name: 'search__query', arguments: { q: 'mcp' } });
    expect(found.content).toEqual([{ type: 'text', text: 'Results for mcp' }]);
    const searchRecordId = lastRequestId();
    await client.callTool({ name: 'search__query', arguments: { q: 'again' } });
    // One token served both calls: it is cached until it expires.
    expect(search.tokensIssued - issuedBefore).toBeLessThanOrEqual(1);
    expect(search.tokensIssued).toBeGreaterThanOrEqual(1);
    const toolError = await client.callTool({ name: 'weather__alerts', arguments: {} });
    expect(toolError.isError).toBe(true);
    const alertsRecordId = lastRequestId();
    await client.close();

    const weatherRecord = await fetchUsageRecord(t, key, weatherRecordId);
    expect(weatherRecord.status).toBe(200);
    expect(weatherRecord.body).toMatchObject({
      endpoint: '/mcp', model: 'mcp:weather', mcp: { server: 'weather', tool: 'forecast', outcome: 'ok' },
      routing: { status_code: 200 }, billing: { amount_microusd: 2000, line_items: [{ dimension: 'mcp_calls', quantity: 1, amount_microusd: 2000 }] },
    });
    expect(weatherRecord.body.routing.total_duration_ms).toEqual(expect.any(Number));
    const searchRecord = await fetchUsageRecord(t, key, searchRecordId);
    expect(searchRecord.body).toMatchObject({ endpoint: '/mcp', mcp: { server: 'search', tool: 'query', outcome: 'ok' }, billing: { amount_microusd: 10_000 } });
    expect((await fetchUsageRecord(t, key, alertsRecordId)).body).toMatchObject({ mcp: { tool: 'alerts', outcome: 'tool_error' }, billing: { amount_microusd: 2000 } });

    const graphql = await fetch(`${t.url}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query($id: ID!) { usageRecord(id: $id) { endpoint mcp { server tool outcome } } }', variables: { id: searchRecordId } }),
    });
    const gql = (await graphql.json()) as any;
    expect(gql.errors).toBeUndefined();
    expect(gql.data.usageRecord).toEqual({ endpoint: '/mcp', mcp: { server: 'search', tool: 'query', outcome: 'ok' } });
  });

  it('answers a call to the server that is down with a clear error, recorded uncharged', async () => {
    const { client, lastRequestId } = await connect(key);
    const failed = await client.callTool({ name: 'down__anything', arguments: {} }).then(() => undefined, (e: any) => e);
    expect(failed).toBeDefined();
    expect(failed.message).toMatch(/MCP server "down": the upstream could not be reached/);
    expect(failed.data).toMatchObject({ code: 'upstream_unreachable' });
    const record = await fetchUsageRecord(t, key, lastRequestId());
    expect(record.body).toMatchObject({ endpoint: '/mcp', mcp: { server: 'down', tool: 'anything', outcome: 'failed' }, routing: { status_code: 502 }, billing: { amount_microusd: 0 } });
    await client.close();
  });

  it('keeps a key to its allowlist: tools outside it are not listed, and calling one is refused', async () => {
    const made = await admin('/api/admin/keys', 'POST', { name: 'weather-only', mcp_tools: ['weather__*'] });
    expect(made.body.mcp_tools).toEqual(['weather__*']);
    const { client } = await connect(made.body.key);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['weather__alerts', 'weather__forecast']);
    const callsBefore = search.calls.length;
    const refused = await client.callTool({ name: 'search__query', arguments: { q: 'x' } }).then(() => undefined, (e: any) => e);
    expect(refused.code).toBe(-32602);
    expect(refused.data).toMatchObject({ code: 'mcp_tool_not_allowed' });
    expect(search.calls.length).toBe(callsBefore);
    // Its resources and prompts: the whole weather server is allowed.
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['weather__brief']);
    const resources = (await client.listResources()).resources;
    expect(resources.map((r) => r.uri)).toEqual(['mcp+weather:weather://stations']);
    expect((await client.readResource({ uri: resources[0].uri })).contents).toEqual([{ uri: 'mcp+weather:weather://stations', text: 'Paris, Oslo' }]);
    await client.close();

    const none = await admin(`/api/admin/keys/${made.body.id}`, 'PATCH', { mcp_tools: [] });
    expect(none.body.mcp_tools).toEqual([]);
    const after = await connect(made.body.key);
    expect((await after.client.listTools()).tools).toEqual([]);
    await after.client.close();
  });

  it('holds a temporary credential to the narrower of its own list and its parent\'s', async () => {
    const parent = await admin('/api/admin/keys', 'POST', { name: 'parent', mcp_tools: ['weather__*', 'search__query'] });
    const mint = (body: unknown) => fetch(`${t.url}/api/credentials`, { method: 'POST', headers: { authorization: `Bearer ${parent.body.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const wider = await mint({ mcp_tools: ['search__*'] });
    expect(wider.status).toBe(400);
    expect(((await wider.json()) as any).error.param).toBe('mcp_tools');
    const minted = (await (await mint({ mcp_tools: ['weather__forecast', 'search__query'] })).json()) as any;
    expect(minted.mcp_tools).toEqual(['weather__forecast', 'search__query']);
    const { client } = await connect(minted.key);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['search__query', 'weather__forecast']);
    await client.close();
    // The parent narrowed later narrows the credential with it.
    await admin(`/api/admin/keys/${parent.body.id}`, 'PATCH', { mcp_tools: ['weather__*'] });
    const again = await connect(minted.key);
    expect((await again.client.listTools()).tools.map((tool) => tool.name)).toEqual(['weather__forecast']);
    await again.client.close();
  });

  it('holds a call\'s price under spend control and settles it with the record; a call the wallet cannot cover never reaches its server', async () => {
    const accountId = (await admin('/api/admin/accounts', 'POST', { name: 'mcp-wallet' })).body.id as string;
    const made = await admin('/api/admin/keys', 'POST', { name: 'mcp-wallet-key', account_id: accountId });
    await admin(`/api/admin/accounts/${accountId}/wallet/top-ups`, 'POST', { amount_microusd: 5_000 });
    const { client, lastRequestId } = await connect(made.body.key);
    await client.callTool({ name: 'weather__forecast', arguments: { city: 'Oslo' } });
    const record = await fetchUsageRecord(t, made.body.key, lastRequestId());
    expect(record.body.billing).toMatchObject({ amount_microusd: 2000 });
    expect((await admin(`/api/admin/accounts/${accountId}/wallet`)).body).toMatchObject({ balance_microusd: 3_000, held_microusd: 0 });
    const callsBefore = search.calls.length;
    const refused = await client.callTool({ name: 'search__query', arguments: { q: 'too dear' } }).then(() => undefined, (e: any) => e);
    expect(refused.data).toMatchObject({ code: 'insufficient_balance' });
    expect(search.calls.length).toBe(callsBefore);
    expect((await fetchUsageRecord(t, made.body.key, lastRequestId())).body).toMatchObject({ mcp: { server: 'search', tool: 'query', outcome: 'failed' }, routing: { status_code: 402 } });
    expect((await admin(`/api/admin/reconcile?account_id=${accountId}`)).body.ok).toBe(true);
    await client.close();
  });

  it('answers 401 with the resource metadata, which says the resource takes the operator\'s bearer keys', async () => {
    const res = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer resource_metadata="/);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1];
    expect(metadataUrl).toBe(`${t.url}/.well-known/oauth-protected-resource/mcp`);
    expect(((await res.json()) as any).error).toMatchObject({ code: -32000, data: { code: 'missing_api_key' } });
    for (const url of [metadataUrl, `${t.url}/.well-known/oauth-protected-resource`]) {
      const metadata = await fetch(url);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toMatchObject({ resource: `${t.url}/mcp`, bearer_methods_supported: ['header'], bearer_token_issuer: 'operator' });
    }
    const wrong = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { authorization: 'Bearer sk-not-a-key', 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('refuses a foreign Origin, and takes the gateway\'s own', async () => {
    const foreign = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.data.code).toBe('origin_not_allowed');
    const own = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { origin: t.url });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('answers malformed JSON-RPC with the error the specification names, never a 500', async () => {
    const parse = await post('{"jsonrpc":');
    expect(parse.status).toBe(400);
    expect(parse.body.error.code).toBe(-32700);
    const batch = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    expect(batch.body.error.code).toBe(-32600);
    expect((await post('{"jsonrpc":"1.0","id":1,"method":"ping"}')).body.error.code).toBe(-32600);
    expect((await post('{"jsonrpc":"2.0","id":1,"method":"tools/destroy"}')).body).toMatchObject({ id: 1, error: { code: -32601 } });
    expect((await post('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}')).body).toMatchObject({ id: 2, error: { code: -32602 } });
    expect((await post('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_server_part"}}')).body).toMatchObject({ id: 3, error: { code: -32602, data: { code: 'mcp_tool_not_found' } } });
    expect((await post('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"x"}')).body).toMatchObject({ id: 4, error: { code: -32602 } });
    expect((await post('{"jsonrpc":"2.0","method":"notifications/initialized"}')).status).toBe(202);
    const get = await fetch(`${t.url}/mcp`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    const del = await fetch(`${t.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect(del.status).toBe(405);
  });
});

