import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Response } from 'express';
import { packageRoot } from '../config/package-root';
import { locals } from '../http/request-locals';

export const CONSOLE_PATH = '/console';

/** Where `npm run build:console` (Vite) writes the console: index.html and assets/ with hashed names. */
export function consoleDistDir(): string {
  return path.join(packageRoot(), 'console', 'dist');
}

/**
 * What the page may load and talk to: its own scripts and styles only, and
 * the gateway's own API (fetch, XMLHttpRequest and the graphql-ws
 * WebSocket); images and downloads from blob URLs it makes itself. Nothing
 * from elsewhere, no inline script, never framed.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web console (the Vite build of `console/`) at /console. The page
 * needs no key (the key is pasted into it and sent with each API call), so
 * this router is mounted among the open ones.
 *
 * - `/console` and `/console/`: index.html, `Cache-Control: no-cache`, so
 *   a new build is picked up at the next load;
 * - `/console/assets/*`: the hashed bundles, cached for a year as
 *   immutable (a new build has new names);
 * - anything else under /console that is no file: the gateway's 404.
 *
 * When the console was never built the page says so (503) and how to build it.
 */
export function consoleRouter(distDir = consoleDistDir()): Router {
  const router = Router();
  const index = path.join(distDir, 'index.html');

  router.get(CONSOLE_PATH, (_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (!existsSync(index)) return sendNotBuilt(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index, (err) => err && next(err));
  });
  router.use(
    `${CONSOLE_PATH}/assets`,
    (_req, res, next) => {
      // One metrics label for every asset, whatever its hashed name.
      locals(res).route = `${CONSOLE_PATH}/assets`;
      next();
    },
    express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '365d', index: false, redirect: false, dotfiles: 'ignore' }),
  );
  return router;
}

function sendNotBuilt(res: Response): void {
  res.status(503).setHeader('Cache-Control', 'no-store').type('html').send(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Console not built</title></head>
<body>
<h1>The console has not been built</h1>
<p>This gateway serves the web console from <code>console/dist</code>, which is missing.
Build it with <code>npm run build</code> (the gateway and the console) or <code>npm run build:console</code> (the console alone),
then reload this page. The API itself works without it.</p>
</body>
</html>
`);
}
