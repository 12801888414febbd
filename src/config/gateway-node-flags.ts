import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root';

/**
 * The Node flags the gateway process runs with, kept once in package.json
 * (`config.gateway_node_flags`): `npm start` passes them, the Dockerfile's
 * CMD repeats them (a test holds the two equal), and every test, drill and
 * benchmark that spawns a gateway reads them here.
 *
 * `--max-semi-space-size=8` (MB): from Node 22 on, V8 grows the young
 * generation under a burst of requests up to 128 MB and keeps it. Capped at
 * 16 MB semi-spaces it stayed at 32 MB (the fuzz drill on Node 24: RSS after
 * 10,000 requests 310 MB uncapped, 263 MB capped). At 8 MB, `npm run
 * bench:quick` five times each way: peak RSS after 50 streams and 50
 * connections 149 MB against 165 MB (medians), the young generation's
 * semi-spaces 16 MB smaller and the buffers of socket reads freed sooner (a
 * scavenge frees them), for about 3 % more CPU per request (2.54 against 2.47
 * times the bare pass-through's, same run). At 4 MB the CPU cost was 11 %.
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
