import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBodyText, readSseEvents, releaseBody, sendUpstream, toStreamReadError, toUpstreamError } from './http-client';
import { ForbiddenAddressError } from './public-address';
import { UpstreamError } from './upstream-error';

/** A real upstream on loopback whose behaviour each test sets, and which remembers the client ports it saw. */
describe('sendUpstream', () => {
  let server: Server;
  let base: string;
  let handler: (req: IncomingMessage, res: ServerResponse) => void;
  const clientPorts: number[] = [];
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      clientPorts.push(req.socket.remotePort!);
      handler(req, res);
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const call = (path: string, timeoutMs = 2000, signal = new AbortController().signal) =>
    sendUpstream({ url: `${base}${path}`, headers: { 'content-type': 'application/json' }, body: '{"x":1}', signal, timeoutMs });

  it('sends the body with its length and returns status, headers and a readable body', async () => {
    handler = (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => res.writeHead(201, { 'x-echo-length': req.headers['content-length'] }).end(`got ${body}`));
    };
    const res = await call('/echo');
    expect(res.status).toBe(201);
    expect(res.headers['x-echo-length']).toBe('7');
    expect(await readBodyText(res.body)).toBe('got {"x":1}');
  });

  it('turns silence before the headers into a retryable time-out', async () => {
    handler = () => undefined;
    const err = await call('/silent', 150).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.details).toMatchObject({ status: 0, retryable: true, cause: 'timeout' });
  });

  it('turns a stream that stalls after its start into a stalled-stream time-out', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
    };
    const res = await call('/stall', 150);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const event of readSseEvents(res.body)) seen.push(event.data);
    })().catch((e) => toStreamReadError(e));
    expect(seen).toEqual(['{"n":1}']);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).details).toMatchObject({ retryable: true, cause: 'timeout' });
    releaseBody(res.body, false);
  });

  it('turns a refused connection into a retryable connect error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await sendUpstream({ url: `http://127.0.0.1:${port}/x`, headers: {}, signal: new AbortController().signal, timeoutMs: 1000 }).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.details).toMatchObject({ status: 0, retryable: true, cause: 'connect' });
  });

  it('rejects with the abort itself, not an upstream failure, when the caller aborts', async () => {
    handler = () => undefined;
    const controller = new AbortController();
    const pending = call('/slow', 5000, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const err = await pending.catch((e) => e);
    expect(err).not.toBeInstanceOf(UpstreamError);
    expect(toUpstreamError(err, controller.signal)).toBe(err);
  });

  it('reuses the connection after a stream read to its end, and drops it after one left early', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"n":1}\n\ndata: [DONE]\n\n');
    };
    const readUntilDone = async () => {
      const res = await call('/sse');
      let done = false;
      for await (const event of readSseEvents(res.body)) {
        if (event.data === '[DONE]') {
          done = true;
          break;
        }
      }
      releaseBody(res.body, done);
      await new Promise((r) => setTimeout(r, 20));
    };
    clientPorts.length = 0;
    await readUntilDone();
    await readUntilDone();
    expect(clientPorts[1]).toBe(clientPorts[0]);

    const res = await call('/sse');
    for await (const event of readSseEvents(res.body)) if (event) break;
    releaseBody(res.body, false);
    await new Promise((r) => setTimeout(r, 20));
    await readUntilDone();
    expect(clientPorts[3]).not.toBe(clientPorts[2]);
  });

  it('refuses to connect a public-only request to a name that resolves to a private address', async () => {
    const err = await sendUpstream({ url: `http://localhost:1/x`, headers: {}, signal: new AbortController().signal, timeoutMs: 1000, publicOnly: true }).catch((e) => e);
    expect(err).toBeInstanceOf(ForbiddenAddressError);
  });
});
