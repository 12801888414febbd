import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { startMcpServer, weatherTools, type TestMcpServer } from '../support/mcp-test-servers';
import { fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

const REVISION = '2026-07-28';
const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
};

/** A server whose one tool answers with the `_meta` its call arrived with, to show what the gateway passes on. */
const metaEcho = (server: McpServer, calls: string[]) => {
  server.registerTool('meta', { description: 'Echoes the request _meta', inputSchema: {} }, async (_args, extra) => {
    calls.push('meta');
    return { content: [{ type: 'text', text: JSON.stringify(extra._meta ?? {}) }] };
  });
};

let weather: TestMcpServer;
let echo: TestMcpServer;

beforeAll(async () => {
  weather = await startMcpServer('weather', weatherTools);
  echo = await startMcpServer('echo', metaEcho);
});

afterAll(async () => {
  await weather.close();
  await echo.close();
});

/** /mcp serves MCP 2026-07-28, the stateless revision, beside the handshake-based ones. */
describe.each(TEST_DATABASES)('/mcp on MCP revision 2026-07-28 (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    const base = loadGatewayConfig({}).document as GatewayConfigInput;
    t = await startTestGateway({
      database,
      config: { ...base, mcp: { servers: [{ name: 'weather', url: weather.url, private: true, price_per_call: '0.002' }, { name: 'echo', url: echo.url, private: true }] } },
    });
    key = await t.createKey({ name: 'mcp-2026' });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** The official TypeScript SDK's v2 client, pinned to the stateless revision; every exchange is kept as it went over the wire. */
  async function connectModern() {
    const exchanges: Array<{ headers: Headers; body: any; status: number; answer: any; requestId: string }> = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        const text = await res.clone().text();
        exchanges.push({
          headers: new Headers(init?.headers), body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
          status: res.status, answer: text && res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text,
          requestId: res.headers.get('x-svc-request-id') ?? '',
        });
        return res;
      },
    });
    const client = new Client({ name: 'modern-client', version: '2.0.0' }, { versionNegotiation: { mode: { pin: REVISION } } });
    await client.connect(transport);
    return { client, exchanges, last: () => exchanges[exchanges.length - 1] };
  }

  /** One raw POST, headers and body as the caller gives them. */
  async function post(body: unknown, headers: Record<string, string>) {
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, requestId: res.headers.get('x-svc-request-id') ?? '' };
  }

  const modernMeta = { [META.protocolVersion]: REVISION, [META.clientInfo]: { name: 'ExampleClient', version: '1.0.0' }, [META.clientCapabilities]: {} };
  const modernHeaders = (method: string, name?: string): Record<string, string> => ({ 'mcp-protocol-version': REVISION, 'mcp-method': method, ...(name !== undefined ? { 'mcp-name': name } : {}) });

  it('serves the v2 SDK client on 2026-07-28: discovery, tools, prompts and resources, each call recorded, with no handshake', async () => {
    const { client, exchanges, last } = await connectModern();
    expect(client.getNegotiatedProtocolVersion()).toBe(REVISION);
    expect(client.getServerVersion()).toMatchObject({ name: 'model-gateway' });
    expect(exchanges.some((e) => e.body?.method === 'initialize')).toBe(false);
    const discovered = exchanges.find((e) => e.body?.method === 'server/discover')!;
    expect(discovered.answer.result).toMatchObject({ resultType: 'complete', supportedVersions: [REVISION, '2025-11-25', '2025-06-18'], capabilities: { tools: {} }, cacheScope: 'public', ttlMs: expect.any(Number) });

    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['echo__meta', 'weather__alerts', 'weather__forecast']);
    const listing = exchanges.find((e) => e.body?.method === 'tools/list')!;
    expect(listing.headers.get('mcp-method')).toBe('tools/list');
    expect(listing.headers.get('mcp-protocol-version')).toBe(REVISION);
    expect(listing.body.params._meta[META.protocolVersion]).toBe(REVISION);
    expect(listing.answer.result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 60_000, _meta: { [META.serverInfo]: { name: 'model-gateway' } } });

    const sunny = await client.callTool({ name: 'weather__forecast', arguments: { city: 'Paris' } });
    expect(sunny.content).toEqual([{ type: 'text', text: 'Sunny in Paris' }]);
    const call = last();
    expect(call.headers.get('mcp-name')).toBe('weather__forecast');
    expect(call.answer.result.resultType).toBe('complete');
    const record = await fetchUsageRecord(t, key, call.requestId);
    expect(record.body).toMatchObject({ endpoint: '/mcp', model: 'mcp:weather', mcp: { server: 'weather', tool: 'forecast', outcome: 'ok' }, billing: { amount_microusd: 2000 } });

    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['weather__brief']);
    const prompt = await client.getPrompt({ name: 'weather__brief', arguments: { city: 'Oslo' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Brief me on Oslo' } }]);
    const resources = (await client.listResources()).resources;
    expect(resources.map((r) => r.uri)).toEqual(['mcp+weather:weather://stations']);
    expect((await client.readResource({ uri: resources[0].uri })).contents).toEqual([{ uri: 'mcp+weather:weather://stations', text: 'Paris, Oslo' }]);
    expect(last().answer.result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 0 });
    // The gateway's own session with the upstream server carries no stateless request's protocol fields.
    const echoed = await client.callTool({ name: 'echo__meta', arguments: {} });
    const passedOn = JSON.parse((echoed.content as Array<{ text: string }>)[0].text);
    expect(Object.keys(passedOn).filter((k) => k.startsWith('io.modelcontextprotocol/'))).toEqual([]);
    await client.close();
  });

  it('answers requests shaped as the specification\'s examples, and refuses, with its errors and statuses, what disagrees with them', async () => {
    // server/discover, as in the specification's Discovery page.
    const discover = await post({ jsonrpc: '2.0', id: 'discover-1', method: 'server/discover', params: { _meta: modernMeta } }, modernHeaders('server/discover'));
    expect(discover.status).toBe(200);
    expect(discover.body).toMatchObject({ jsonrpc: '2.0', id: 'discover-1', result: { resultType: 'complete', supportedVersions: expect.arrayContaining([REVISION]), _meta: { [META.serverInfo]: { name: 'model-gateway', version: expect.any(String) } }, cacheScope: 'public' } });
    expect(discover.body.result.ttlMs).toBeGreaterThanOrEqual(0);

    // tools/call, as in the Streamable HTTP page's example: one record, the tool's answer with its resultType.
    const call = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'weather__forecast', arguments: { city: 'Seattle' }, _meta: modernMeta } }, modernHeaders('tools/call', 'weather__forecast'));
    expect(call).toMatchObject({ status: 200, body: { id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: 'Sunny in Seattle' }] } } });
    expect((await fetchUsageRecord(t, key, call.requestId)).body).toMatchObject({ mcp: { server: 'weather', tool: 'forecast', outcome: 'ok' } });

    // A name sent Base64-encoded is decoded before it is compared.
    const encoded = `=?base64?${Buffer.from('weather__forecast').toString('base64')}?=`;
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'weather__forecast', arguments: { city: 'Kyiv' }, _meta: modernMeta } }, modernHeaders('tools/call', encoded))).body.result.resultType).toBe('complete');

    // Headers that disagree with the body, or are missing: 400, HeaderMismatch, and the tool is never called.
    const callsBefore = weather.calls.length;
    const mismatches: Array<[Record<string, string>, RegExp]> = [
      [modernHeaders('tools/call', 'weather__alerts'), /Mcp-Name header value 'weather__alerts' does not match body value 'weather__forecast'/],
      [modernHeaders('tools/list', 'weather__forecast'), /Mcp-Method/],
      [{ 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/call' }, /Mcp-Name header is required/],
      [{ 'mcp-protocol-version': REVISION, 'mcp-name': 'weather__forecast' }, /Mcp-Method header is required/],
      [{ 'mcp-method': 'tools/call', 'mcp-name': 'weather__forecast' }, /MCP-Protocol-Version header is required/],
      [{ ...modernHeaders('tools/call', 'weather__forecast'), 'mcp-protocol-version': '2025-11-25' }, /MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'/],
      [modernHeaders('tools/call', '=?base64?!!!?='), /Mcp-Name/],
    ];
    for (const [headers, message] of mismatches) {
      const refused = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'weather__forecast', arguments: { city: 'Nowhere' }, _meta: modernMeta } }, headers);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32020, message } });
    }
    expect(weather.calls.length).toBe(callsBefore);

    // An unsupported revision names the ones served; the client can retry with one of them.
    const unsupported = await post({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { ...modernMeta, [META.protocolVersion]: '1900-01-01' } } }, { ...modernHeaders('tools/list'), 'mcp-protocol-version': '1900-01-01' });
    expect(unsupported).toMatchObject({ status: 400, body: { id: 4, error: { code: -32022, data: { supported: [REVISION, '2025-11-25', '2025-06-18'], requested: '1900-01-01' } } } });
    const unsupportedHeader = await post({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-protocol-version': '2099-12-31' });
    expect(unsupportedHeader).toMatchObject({ status: 400, body: { id: 5, error: { code: -32022, data: { requested: '2099-12-31' } } } });

    // The per-request fields are required: without them, 400 and invalid params.
    const { [META.clientCapabilities]: _dropped, ...noCapabilities } = modernMeta;
    expect(await post({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: noCapabilities } }, modernHeaders('tools/list'))).toMatchObject({ status: 400, body: { id: 6, error: { code: -32602, message: /clientCapabilities/ } } });
    expect(await post({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, modernHeaders('tools/list'))).toMatchObject({ status: 400, body: { id: 7, error: { code: -32602, message: /protocolVersion/ } } });

    // A method the revision has not (ping went with the handshake) or the gateway does not serve: 404, method not found.
    expect(await post({ jsonrpc: '2.0', id: 8, method: 'ping', params: { _meta: modernMeta } }, modernHeaders('ping'))).toMatchObject({ status: 404, body: { id: 8, error: { code: -32601 } } });
    expect(await post({ jsonrpc: '2.0', id: 9, method: 'subscriptions/listen', params: { _meta: modernMeta } }, modernHeaders('subscriptions/listen'))).toMatchObject({ status: 404, body: { id: 9, error: { code: -32601 } } });

    // Gateway refusals keep their shape: an unknown tool is invalid params with the gateway's envelope in data.
    const unknown = await post({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'nothing', arguments: {}, _meta: modernMeta } }, modernHeaders('tools/call', 'nothing'));
    expect(unknown).toMatchObject({ status: 200, body: { id: 10, error: { code: -32602, data: { code: 'mcp_tool_not_found', request_id: unknown.requestId } } } });
    const missingResource = await post({ jsonrpc: '2.0', id: 11, method: 'resources/read', params: { uri: 'mcp+weather:weather://nowhere', _meta: modernMeta } }, modernHeaders('resources/read', 'mcp+weather:weather://nowhere'));
    expect(missingResource.body).toMatchObject({ id: 11, error: { code: -32602, data: { code: 'mcp_server_error', details: { server: 'weather' } } } });

    // A session id (from an older client) is ignored, not echoed.
    const withSession = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'stale', ...modernHeaders('tools/list') }, body: JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'tools/list', params: { _meta: modernMeta } }) });
    expect(withSession.status).toBe(200);
    expect(withSession.headers.get('mcp-session-id')).toBeNull();
  });

  it('still serves legacy clients unchanged: initialize negotiates a legacy revision, even when the modern one is proposed', async () => {
    const proposed = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }, {});
    expect(proposed.body.result.protocolVersion).toBe('2025-11-25');
    expect(proposed.body.result.resultType).toBeUndefined();
    const legacy = new LegacyClient({ name: 'legacy-client', version: '1.0.0' });
    const transport = new LegacyTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    await legacy.connect(transport);
    expect(transport.protocolVersion).toBe('2025-11-25');
    const listed = await legacy.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['echo__meta', 'weather__alerts', 'weather__forecast']);
    expect((listed as Record<string, unknown>).resultType).toBeUndefined();
    await legacy.ping();
    await legacy.close();
    // A legacy request has no server/discover.
    expect(await post({ jsonrpc: '2.0', id: 2, method: 'server/discover' }, { 'mcp-protocol-version': '2025-11-25' })).toMatchObject({ status: 200, body: { id: 2, error: { code: -32601 } } });
  });
});
