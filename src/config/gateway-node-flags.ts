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
 *
 * `--liftoff-only`: WebAssembly (PGlite's PostgreSQL, Prisma's query
 * compiler) on V8's baseline compiler only (v8-flags.ts says why). On Node
 * 24 it must be given on the command line: set at run time it no longer
 * reaches the WebAssembly engine, and the embedded database's start peaked
 * at 750 MB instead of 200 MB.
 */
export function gatewayNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { config?: { gateway_node_flags?: string } };
  return (pkg.config?.gateway_node_flags ?? '').split(/\s+/).filter(Boolean);
}

/**
 * The environment the gateway process starts with, besides its settings:
 * `MALLOC_ARENA_MAX=2` caps glibc's malloc arenas (by default up to eight
 * per core, one per thread that allocates: V8's compiler and GC threads,
 * libuv's pool), whose fragments stayed resident. Measured with 50
 * connections then 50 streams on two cores: peak RSS 173 MB against 184 MB
 * uncapped, at the same CPU per request within the host's noise. `npm
 * start` and the Dockerfile set it unless the environment already does;
 * tests, drills and the bench spawn gateways with it.
 */
export const GATEWAY_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
