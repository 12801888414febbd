import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { startSseMcpServer, weatherTools, type TestSseMcpServer } from '../support/mcp-test-servers';
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
});
