import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The MCP server the mcp_tool_call phase calls, with and without the
 * gateway in front: MCP's Streamable HTTP transport without sessions,
 * answering every POST at once with JSON (`initialize`, `tools/list` with
 * one tool, `tools/call` echoing its arguments; 202 to notifications). It
 * does as little as an MCP server can, so that what the gateway adds is
 * what shows.
 *
 * Run as `node dist-bench/bench/mcp-echo-server.js`; prints one JSON line
 * with its URL once listening.
 */
const TOOL = { name: 'echo', description: 'Echoes its text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };

function answer(message: { id?: unknown; method?: string; params?: { protocolVersion?: string; arguments?: { text?: unknown } } }): unknown {
  switch (message.method) {
    case 'initialize':
      return { protocolVersion: message.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'bench-echo', version: '1.0.0' } };
    case 'tools/list':
      return { tools: [TOOL] };
    case 'tools/call':
      return { content: [{ type: 'text', text: String(message.params?.arguments?.text ?? '') }] };
    default:
      return undefined;
  }
}

function startEchoServer(): void {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let message: { id?: unknown; method?: string };
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result = answer(message);
      const body = JSON.stringify(result === undefined ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } } : { jsonrpc: '2.0', id: message.id, result });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ event: 'mcp_echo_listening', url: `http://127.0.0.1:${port}/mcp` })}\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

startEchoServer();
