import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The floor the gateway is measured against at one connection: a bare Node
 * pass-through to the simulator (its own process, keep-alive upstream
 * connections, no parsing, no auth, no records). Whatever it adds over going
 * straight to the simulator is the price of one more process and hop on this
 * machine, which no gateway logic can win back.
 *
 * Run as `node dist-bench/bench/bare-proxy.js` with BARE_PROXY_UPSTREAM set; prints
 * one JSON line with its URL once listening.
 */
function startBareProxy(upstreamUrl: string): void {
  const upstream = new URL(upstreamUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    // The body is read whole and sent with its length in one write, as the gateway sends it.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = { ...req.headers, 'content-length': String(body.length) };
      delete headers['transfer-encoding'];
      const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => {
        if (!res.headersSent) res.statusCode = 502;
        res.end();
      });
      out.end(body);
    });
  });
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ event: 'bare_proxy_listening', url: `http://127.0.0.1:${port}` })}\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

startBareProxy(process.env.BARE_PROXY_UPSTREAM ?? 'http://127.0.0.1:8090');
