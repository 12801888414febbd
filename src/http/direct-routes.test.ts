import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { directRoutes } from './direct-routes';
import { GatewayError } from '../errors/gateway-error';
import type { Middleware } from './http-types';
import { locals } from './request-locals';
import { sendJson } from './send-json';

describe('directRoutes', () => {
  let server: Server;
  let url: string;
  const trail: string[] = [];

  beforeAll(async () => {
    const before: Middleware = (_req, res, next) => {
      trail.push(`before ${locals(res).route}`);
      next();
    };
    const listener = directRoutes(
      [
        {
          path: '/v1/things',
          methods: {
            POST: [(_req, res) => sendJson(res, 200, { served: 'direct' })],
            GET: [
              async (req) => {
                if (req.url?.includes('reject')) throw new GatewayError('video_not_ready', 'async failure');
                throw new Error('plain failure');
              },
            ],
          },
        },
        {
          path: '/v1beta/models/',
          match: 'prefix',
          errorStyle: { body: (err) => ({ dialect: 'other', code: err.code }) },
          methods: {
            POST: [(req, res) => sendJson(res, 200, { served: 'prefix', url: req.url })],
            GET: [() => { throw new GatewayError('video_not_ready', 'in another dialect'); }],
          },
        },
      ],
      [before],
      (err, _req, res) => {
        const e = err as GatewayError;
        const style = locals(res).errorStyle;
        sendJson(res, e.status ?? 500, style ? style.body(e, locals(res).requestId) : { code: e.code ?? 'internal_error' });
      },
      (_req, res) => sendJson(res, 200, { served: 'fallback' }),
    );
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const call = async (method: string, path: string) => {
    const res = await fetch(`${url}${path}`, { method });
    return { status: res.status, allow: res.headers.get('allow'), body: await res.json() };
  };

  it('matches the exact path, ignoring case, the query string and one trailing slash', async () => {
    for (const path of ['/v1/things', '/V1/Things', '/v1/things/', '/v1/things?x=1']) {
      expect(await call('POST', path)).toMatchObject({ status: 200, body: { served: 'direct' } });
    }
    expect(trail.at(-1)).toBe('before /v1/things');
  });

  it('matches an absolute-form request target by its path', async () => {
    const { request } = await import('node:http');
    const { port } = new URL(url);
    const body = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: `http://gateway.example/v1/things?x=1` }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    expect(JSON.parse(body)).toEqual({ served: 'direct' });
  });

  it('hands every other path to the fallback', async () => {
    for (const path of ['/v1/thing', '/v1/things/1', '/', '/v1/things//']) {
      expect(await call('POST', path)).toMatchObject({ status: 200, body: { served: 'fallback' } });
    }
  });

  it('answers another method with 405 and Allow, after the shared middlewares', async () => {
    trail.length = 0;
    const answer = await call('DELETE', '/v1/things');
    expect(answer).toMatchObject({ status: 405, allow: 'POST, GET', body: { code: 'method_not_allowed' } });
    expect(trail).toEqual(['before /v1/things']);
  });

  it('sends thrown errors and rejected promises to the error handler', async () => {
    expect(await call('GET', '/v1/things?reject')).toMatchObject({ status: 409, body: { code: 'video_not_ready' } });
    expect(await call('GET', '/v1/things')).toMatchObject({ status: 500, body: { code: 'internal_error' } });
  });

  it('serves every path under a prefix route, after the exact ones, and words its errors in its own style', async () => {
    expect(await call('POST', '/v1beta/models/gemini-x:generateContent?alt=sse')).toMatchObject({ status: 200, body: { served: 'prefix', url: '/v1beta/models/gemini-x:generateContent?alt=sse' } });
    expect(trail.at(-1)).toBe('before /v1beta/models/*');
    expect(await call('GET', '/v1beta/models/gemini-x')).toMatchObject({ status: 409, body: { dialect: 'other', code: 'video_not_ready' } });
    // The prefix itself is not under it.
    expect(await call('POST', '/v1beta/models')).toMatchObject({ status: 200, body: { served: 'fallback' } });
    expect(await call('POST', '/v1beta/other/x')).toMatchObject({ status: 200, body: { served: 'fallback' } });
  });
});
