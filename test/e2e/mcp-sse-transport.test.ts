import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { startSseMcpServer, weatherTools, type TestSseMcpServer } from '../support/mcp-test-servers';
import { eventually } from '../support/eventually';
import { ADMIN_TOKEN, fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

let legacy: TestSseMcpServer;

beforeAll(async () => {
  legacy = await startSseMcpServer('legacy', weatherTools);
});

afterAll(async () => {
  await legacy.close();
});

/** An upstream MCP server on the older HTTP+SSE transport (`transport: sse`), served at /mcp as any other. */
describe.each(TEST_DATABASES)('an MCP server on the HTTP+SSE transport (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    const base = loadGatewayConfig({}).document as GatewayConfigInput;
    t = await startTestGateway({ database, config: { ...base, mcp: { servers: [{ name: 'legacy', url: legacy.url, transport: 'sse', private: true, price_per_call: '0.001' }] } } });
    key = await t.createKey({ name: 'mcp-sse' });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function connect() {
    const requestIds: string[] = [];
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        requestIds.push(res.headers.get('x-svc-request-id') ?? '');
        return res;
      },
    }));
    return { client, lastRequestId: () => requestIds[requestIds.length - 1] };
  }

  it('lists its tools and calls them over one event stream, each answer matched to its call, each call recorded', async () => {
    const streamsBefore = legacy.streamsOpened;
    const { client, lastRequestId } = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['legacy__alerts', 'legacy__forecast']);
    const sunny = await client.callTool({ name: 'legacy__forecast', arguments: { city: 'Lyon' } });
    expect(sunny.content).toEqual([{ type: 'text', text: 'Sunny in Lyon' }]);
    expect((await fetchUsageRecord(t, key, lastRequestId())).body).toMatchObject({ endpoint: '/mcp', model: 'mcp:legacy', mcp: { server: 'legacy', tool: 'forecast', outcome: 'ok' }, billing: { amount_microusd: 1000 } });
    const cities = ['Oslo', 'Rome', 'Kyiv', 'Lima', 'Faro'];
    const answers = await Promise.all(cities.map((city) => client.callTool({ name: 'legacy__forecast', arguments: { city } })));
    expect(answers.map((a) => (a.content as Array<{ text: string }>)[0].text)).toEqual(cities.map((city) => `Sunny in ${city}`));
    expect((await client.callTool({ name: 'legacy__alerts', arguments: {} })).isError).toBe(true);
    // Its prompts and resources pass through too.
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['legacy__brief']);
    expect(legacy.streamsOpened - streamsBefore).toBe(1);
    await client.close();
    const health = (await (await fetch(`${t.url}/api/admin/mcp/servers/legacy`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as any;
    expect(health).toMatchObject({ transport: 'sse', health: { last_success_at: expect.any(String), last_failure_at: null } });
  });

  it('opens a new stream and session when the server forgot the session or ended the stream', async () => {
    const { client } = await connect();
    await client.callTool({ name: 'legacy__forecast', arguments: { city: 'Bern' } });
    const streams = legacy.streamsOpened;
    legacy.forgetSessions();
    expect((await client.callTool({ name: 'legacy__forecast', arguments: { city: 'Graz' } })).content).toEqual([{ type: 'text', text: 'Sunny in Graz' }]);
    expect(legacy.streamsOpened).toBe(streams + 1);
    legacy.endStreams();
    // The stream's end is seen before the next call, or fails it; either way the call after that runs on a new stream.
    const next = await client.callTool({ name: 'legacy__forecast', arguments: { city: 'Linz' } }).catch((e: any) => e);
    if (next instanceof Error) expect(['upstream_error', 'upstream_stream_interrupted', 'upstream_unreachable']).toContain((next as any).data?.code);
    expect((await client.callTool({ name: 'legacy__forecast', arguments: { city: 'Riga' } })).content).toEqual([{ type: 'text', text: 'Sunny in Riga' }]);
    expect(legacy.streamsOpened).toBe(streams + 2);
    await client.close();
  });
  it('closes the event stream to a server the operator edits, disables or removes, and to no other', async () => {
    const admin = async (path: string, method: string, body?: unknown) => (await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })).status;
    // The same upstream under a second name: one stream per name, so the upstream counts both.
    expect(await admin('/api/admin/mcp/servers', 'POST', { name: 'twin', url: legacy.url, transport: 'sse', private: true })).toBe(201);
    const { client } = await connect();
    const call = (server: string) => client.callTool({ name: `${server}__forecast`, arguments: { city: 'Oslo' } });
    await call('legacy');
    await call('twin');
    const open = legacy.streamsOpen;
    expect(open).toBeGreaterThanOrEqual(2);
    const closedOne = (what: string) => eventually(async () => (legacy.streamsOpen === open - 1 ? true : undefined), () => `${what}: the upstream sees one stream closed (${legacy.streamsOpen} open, ${open} before)`);

    const opened = legacy.streamsOpened;
    // A price changes nothing the connection uses: the stream serves on.
    expect(await admin('/api/admin/mcp/servers/twin', 'PATCH', { price_per_call: '0.003' })).toBe(200);
    await call('twin');
    expect({ opened: legacy.streamsOpened, open: legacy.streamsOpen }).toEqual({ opened, open });
    expect(await admin('/api/admin/mcp/servers/twin', 'PATCH', { timeout_ms: 10_000 })).toBe(200);
    await closedOne('twin edited');
    await call('legacy');
    expect(legacy.streamsOpened).toBe(opened);
    await call('twin');
    expect(legacy.streamsOpened).toBe(opened + 1);
    expect(legacy.streamsOpen).toBe(open);

    expect(await admin('/api/admin/mcp/servers/twin/enabled', 'PATCH', { enabled: false })).toBe(200);
    await closedOne('twin disabled');
    expect(await admin('/api/admin/mcp/servers/twin/enabled', 'PATCH', { enabled: true })).toBe(200);
    await call('twin');
    expect(legacy.streamsOpen).toBe(open);

    expect(await admin('/api/admin/mcp/servers/twin', 'DELETE')).toBe(200);
    await closedOne('twin removed');
    expect((await call('legacy')).content).toEqual([{ type: 'text', text: 'Sunny in Oslo' }]);
    expect(legacy.streamsOpen).toBe(open - 1);
    await client.close();
  });
  it('lets a call in flight on the old stream have its answer before that stream is closed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = await startSseMcpServer('slow', (server, calls) => {
      server.registerTool('wait', { description: 'Answers when the test lets it', inputSchema: {} }, async () => {
        calls.push('wait');
        await held;
        return { content: [{ type: 'text', text: 'done' }] };
      });
    });
    const admin = async (path: string, method: string, body?: unknown) => (await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })).status;
    try {
      expect(await admin('/api/admin/mcp/servers', 'POST', { name: 'slow', url: slow.url, transport: 'sse', private: true })).toBe(201);
      const { client } = await connect();
      const pending = client.callTool({ name: 'slow__wait', arguments: {} });
      await eventually(async () => (slow.calls.includes('wait') ? true : undefined), 'the call to reach the server');
      expect(await admin('/api/admin/mcp/servers/slow', 'PATCH', { timeout_ms: 20_000 })).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(slow.streamsOpen).toBe(1);
      release();
      expect((await pending).content).toEqual([{ type: 'text', text: 'done' }]);
      await eventually(async () => (slow.streamsOpen === 0 ? true : undefined), () => `the old stream closed once answered (${slow.streamsOpen} open)`);
      expect(await admin('/api/admin/mcp/servers/slow', 'DELETE')).toBe(200);
      await client.close();
    } finally {
      release();
      await slow.close();
    }
  });
});
