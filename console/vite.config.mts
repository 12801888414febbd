import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console's build: `npm run build:console` (run by `npm run build`)
 * writes console/dist, which the gateway serves at /console
 * (src/console/console-router.ts). Preact's JSX is compiled by Vite's own
 * transformer (oxc), so no framework plugin is needed.
 *
 * `npm run dev:console` serves the sources with hot reload on port 5173 and
 * forwards the API paths to a running gateway (GATEWAY_URL, by default
 * http://127.0.0.1:8080).
 */
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
  },
  server: {
    proxy: {
      '/graphql': { target: gateway, ws: true },
      '/v1': gateway,
      '/api': gateway,
    },
  },
});
