import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** A real MCP server (the official SDK's McpServer, stateless Streamable HTTP) on loopback, optionally behind a bearer token. */
export interface TestMcpServer {
  url: string;
  /** `tools/call`s it received, by tool name. */
  calls: string[];
  /** Tokens its token endpoint issued (for the OAuth one). */
  tokensIssued: number;
  close(): Promise<void>;
}

type Register = (server: McpServer, calls: string[]) => void;

/** The weather server: two tools, a prompt and a resource, no auth. */
export const weatherTools: Register = (server, calls) => {
  server.registerTool('forecast', { description: 'The forecast for a city', inputSchema: { city: z.string() }, annotations: { readOnlyHint: true } }, async ({ city }) => {
    calls.push('forecast');
    return { content: [{ type: 'text', text: `Sunny in ${city}` }] };
  });
  server.registerTool('alerts', { description: 'Weather alerts', inputSchema: {} }, async () => {
    calls.push('alerts');
    return { content: [{ type: 'text', text: 'No alerts' }], isError: true };
  });
  server.registerPrompt('brief', { description: 'A weather brief', argsSchema: { city: z.string() } }, ({ city }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Brief me on ${city}` } }],
  }));
  server.registerResource('stations', 'weather://stations', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'Paris, Oslo' }] }));
};

/** The search server: one tool. */
export const searchTools: Register = (server, calls) => {
  server.registerTool('query', { description: 'Searches', inputSchema: { q: z.string() } }, async ({ q }) => {
    calls.push('query');
    return { content: [{ type: 'text', text: `Results for ${q}` }] };
  });
};

/**
 * Starts one on an ephemeral loopback port. With `oauth`, it serves a token
 * endpoint at `/token` (client credentials by HTTP Basic) and its MCP
 * endpoint at `/mcp` answers 401 to any other bearer token.
 */
export async function startMcpServer(name: string, register: Register, oauth?: { clientId: string; clientSecret: string }): Promise<TestMcpServer> {
  const calls: string[] = [];
  const issued = new Set<string>();
  const state = { tokensIssued: 0 };
  const http: Server = createServer((req, res) => void handle(req, res).catch(() => { res.statusCode = 500; res.end(); }));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    if (req.url === '/token') {
      const expected = `Basic ${Buffer.from(`${oauth!.clientId}:${oauth!.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected || !body.includes('grant_type=client_credentials')) return json(res, 401, { error: 'invalid_client' });
      const token = `tok-${++state.tokensIssued}`;
      issued.add(token);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (oauth && !issued.has(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '')) return json(res, 401, { error: 'invalid_token' });
    const server = new McpServer({ name, version: '1.0.0' });
    register(server, calls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: name === 'weather' });
    res.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
  }
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    get tokensIssued() { return state.tokensIssued; },
    close: () => new Promise((resolve) => { http.closeAllConnections(); http.close(() => resolve()); }),
  };
}

/** An MCP server on the older HTTP+SSE transport (the official SDK's SSEServerTransport): its event stream at `/sse`, messages POSTed to `/messages?sessionId=`. */
export interface TestSseMcpServer extends TestMcpServer {
  /** Event streams opened so far. */
  streamsOpened: number;
  /** Event streams open now (a stream the gateway closed is no longer counted). */
  streamsOpen: number;
  /** Forgets every session (as a restarted server does): a POST to one is answered 404. */
  forgetSessions(): void;
  /** Ends every open event stream from the server's side. */
  endStreams(): void;
}

export async function startSseMcpServer(name: string, register: Register): Promise<TestSseMcpServer> {
  const calls: string[] = [];
  const sessions = new Map<string, { transport: SSEServerTransport; res: ServerResponse }>();
  const state = { streamsOpened: 0, streamsOpen: 0 };
  const http: Server = createServer((req, res) => void handle(req, res).catch(() => { res.statusCode = 500; res.end(); }));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      state.streamsOpened++;
      state.streamsOpen++;
      const server = new McpServer({ name, version: '1.0.0' });
      register(server, calls);
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, { transport, res });
      res.on('close', () => {
        state.streamsOpen--;
        sessions.delete(transport.sessionId);
      });
      await server.connect(transport);
      return;
    }
    const session = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (req.method !== 'POST' || url.pathname !== '/messages' || !session) return json(res, 404, { error: 'no such session' });
    const body = await readBody(req);
    await session.transport.handlePostMessage(req, res, JSON.parse(body));
  }
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    calls,
    tokensIssued: 0,
    get streamsOpened() { return state.streamsOpened; },
    get streamsOpen() { return state.streamsOpen; },
    forgetSessions: () => sessions.clear(),
    endStreams: () => { for (const { res } of sessions.values()) res.end(); },
    close: () => new Promise((resolve) => { http.closeAllConnections(); http.close(() => resolve()); }),
  };
}

/** A loopback address where nothing listens. */
export async function closedPortUrl(): Promise<string> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  await new Promise<void>((resolve) => http.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks).toString('utf8'))).on('error', reject);
  });
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}
