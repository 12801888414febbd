import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { consoleRouter } from './console-router';

/** The console router alone, over a built folder made up for the test (the browser tests use the real build). */
describe('console router', () => {
  let dir: string;
  let server: Server;
  let url: string;

  async function serve(distDir: string): Promise<void> {
    const app = express();
    app.use(consoleRouter(distDir));
    app.use((_req, res) => void res.status(404).json({ error: { code: 'not_found' } }));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'console-dist-'));
  });
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at /console and /console/ with no-cache, and hashed assets as immutable for a year', async () => {
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/console/assets/index-abc123.js"></script>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1);');
    await serve(dir);

    for (const page of ['/console', '/console/']) {
      const res = await fetch(`${url}${page}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
      expect(await res.text()).toContain('index-abc123.js');
    }

    const asset = await fetch(`${url}/console/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    expect((await fetch(`${url}/console/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${url}/console/assets/../../etc/passwd`)).status).toBe(404);
  });

  it('answers 503 with how to build the console when it was never built', async () => {
    await serve(path.join(dir, 'not-built'));
    const res = await fetch(`${url}/console`);
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('npm run build');
  });
});
