import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root';

/**
 * The Node flags the gateway process runs with, kept once in package.json
 * (`config.gateway_node_flags`): `npm start` passes them, the Dockerfile's
 * CMD repeats them (a test holds the two equal), and every test, drill and
 * benchmark that spawns a gateway reads them here.
 *
 * `--max-semi-space-size=16` (MB): from Node 22 on, V8 grows the young
 * generation under a burst of requests up to 128 MB and keeps it; capped at
 * Node 20's 16 MB semi-spaces it stays at 32 MB. Measured with the fuzz
 * drill on Node 24: RSS after 10,000 requests 310 MB uncapped, 263 MB with
 * the cap, at the same request rate.
 */
export function gatewayNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { config?: { gateway_node_flags?: string } };
  return (pkg.config?.gateway_node_flags ?? '').split(/\s+/).filter(Boolean);
}
