import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { GatewayError } from '../errors/gateway-error';
import { runChain } from './direct-routes';
import { jsonBody, MAX_JSON_DEPTH } from './json-body';
import type { HttpRequest } from './http-types';
import { sendJson } from './send-json';
import { eventually } from '../../test/support/eventually';

const LIMIT = 1024;

interface Answer {
  status: number;
  body: any;
}

/** A server that reads JSON bodies with `jsonBody(limit)` and answers with what it read, or the refusal. */
async function listen(limit: number, seen: (req: HttpRequest) => void = () => undefined, refused: (req: HttpRequest) => void = () => undefined): Promise<{ server: Server; port: number }> {
  const handle = runChain(
    [
      jsonBody(limit),
      (req, res) => {
        seen(req);
        sendJson(res, 200, { body: req.body ?? null });
      },
    ],
    (err, req, res) => {
      refused(req);
      const e = err instanceof GatewayError ? err : new GatewayError('internal_error', String(err));
      sendJson(res, e.status, { code: e.code, message: e.message });
    },
  );
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('jsonBody', () => {
  let server: Server;
  let port: number;
  let seen: Array<{ hasBodyProperty: boolean; body: unknown }>;

  beforeAll(async () => {
    seen = [];
    ({ server, port } = await listen(LIMIT, (req) => seen.push({ hasBodyProperty: 'body' in req, body: req.body })));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  function send(body: Buffer | string | undefined, headers: Record<string, string> = {}, method = 'POST'): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', method, path: '/', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  const json = { model: 'm', messages: [{ role: 'user', content: 'héllo' }] };
  const text = JSON.stringify(json);

  it('reads plain, gzip, deflate and br bodies, whatever the content type', async () => {
    expect(await send(text, { 'content-type': 'application/json' })).toEqual({ status: 200, body: { body: json } });
    expect(await send(text, { 'content-type': 'application/x-www-form-urlencoded' })).toEqual({ status: 200, body: { body: json } });
    expect(await send(gzipSync(text), { 'content-encoding': 'gzip' })).toEqual({ status: 200, body: { body: json } });
    expect(await send(deflateSync(text), { 'content-encoding': 'deflate' })).toEqual({ status: 200, body: { body: json } });
    expect(await send(brotliCompressSync(text), { 'content-encoding': 'br' })).toEqual({ status: 200, body: { body: json } });
    expect(await send(text, { 'content-type': 'application/json; charset=UTF-8' })).toEqual({ status: 200, body: { body: json } });
  });

  it('reads an empty body as {} and leaves a missing one undefined (but declared)', async () => {
    expect(await send('', { 'content-length': '0' })).toEqual({ status: 200, body: { body: {} } });
    seen.length = 0;
    expect(await send(undefined, {}, 'GET')).toEqual({ status: 200, body: { body: null } });
    expect(seen).toEqual([{ hasBodyProperty: true, body: undefined }]);
  });

  it('takes any JSON value and skips a byte order mark', async () => {
    expect(await send('[1,2]')).toEqual({ status: 200, body: { body: [1, 2] } });
    expect(await send(`\ufeff${text}`)).toEqual({ status: 200, body: { body: json } });
  });

  it('refuses bodies nested deeper than the limit, however deep, and takes those at the limit', async () => {
    const nested = (depth: number) => '['.repeat(depth - 1) + '{"a":1}' + ']'.repeat(depth - 1);
    expect(await send(nested(MAX_JSON_DEPTH))).toMatchObject({ status: 200 });
    for (const depth of [MAX_JSON_DEPTH + 1, 300, 500]) {
      expect(await send(nested(depth))).toMatchObject({ status: 400, body: { code: 'json_too_deep' } });
    }
    // A tool's parameters schema nested too deep is refused before anything recurses over it.
    const deepTool = `{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":${'{"x":'.repeat(130)}1${'}'.repeat(130)}}}]}`;
    expect(await send(deepTool)).toMatchObject({ status: 400, body: { code: 'json_too_deep' } });
  });

  it('refuses malformed JSON, other charsets and unknown encodings', async () => {
    expect(await send('{"model": ')).toMatchObject({ status: 400, body: { code: 'invalid_json' } });
    expect(await send(text, { 'content-type': 'application/json; charset=latin1' })).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    expect(await send(text, { 'content-encoding': 'compress' })).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    expect(await send('not gzip at all', { 'content-encoding': 'gzip' })).toMatchObject({ status: 400, body: { code: 'invalid_body_encoding' } });
  });

  it('refuses bodies over the limit, declared, chunked or once decompressed, and the connection stays usable', async () => {
    const big = JSON.stringify({ x: 'y'.repeat(LIMIT) });
    expect(await send(big)).toMatchObject({ status: 413, body: { code: 'request_body_too_large' } });
    expect(await send(big, { 'transfer-encoding': 'chunked' })).toMatchObject({ status: 413, body: { code: 'request_body_too_large' } });
    const bomb = gzipSync(JSON.stringify({ x: ' '.repeat(100 * LIMIT) }));
    expect(bomb.length).toBeLessThan(LIMIT);
    expect(await send(bomb, { 'content-encoding': 'gzip' })).toMatchObject({ status: 413, body: { code: 'request_body_too_large' } });
    expect(await send(text)).toEqual({ status: 200, body: { body: json } });
  });

  it('survives a client that goes away mid-body', async () => {
    await new Promise<void>((resolve) => {
      const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'content-length': '500' } });
      req.on('error', () => resolve());
      req.write('{"model": "m", ');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    expect(await send(text)).toEqual({ status: 200, body: { body: json } });
  });
});

describe('jsonBody and memory', () => {
  it('keeps nothing of a body it refused reachable from the request', async () => {
    const limit = 4 * 1024 * 1024;
    // As the gateway's connections, logs and spans may keep a request object for a while after its answer.
    const requests: HttpRequest[] = [];
    const { server, port } = await listen(limit, undefined, (req) => requests.push(req));
    const agent = new Agent({ maxSockets: 8 });
    // Small on the wire, four times the limit once inflated.
    const bomb = gzipSync(Buffer.alloc(4 * limit));
    const refused = () => new Promise<number>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/', agent, headers: { 'content-encoding': 'gzip' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end(bomb);
    });
    const gc = exposedGc();
    const held = () => {
      gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    try {
      const before = held();
      // Eight refused bodies, each read up to the limit: 32 MB if they stayed reachable.
      expect(await Promise.all(Array.from({ length: 8 }, refused))).toEqual(Array(8).fill(413));
      expect(requests).toHaveLength(8);
      // V8 frees dead buffers' memory on a thread of its own after a collection: wait for it, within a bound.
      let last = 0;
      await eventually(async () => ((last = held() - before) < limit ? true : undefined), () => `less than ${limit} bytes held (${last} still)`);
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** V8's `gc()`, for a test that measures what is still reachable. */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
