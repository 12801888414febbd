import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a long-running gateway, applied by main.ts before anything
 * else runs (a flag given to node on the command line wins over its default
 * here). Each was measured with `npm run bench`:
 *
 * - WebAssembly (Prisma's query compiler, PGlite's PostgreSQL) runs on the
 *   baseline compiler, Liftoff, only. Optimizing those large modules in the
 *   background cost 35 to 50 MB of resident memory on PostgreSQL and several
 *   hundred MB on the first PGlite start, for no CPU difference the bench
 *   could see. Node 24 takes this one only on the command line, so it is
 *   also in package.json's `config.gateway_node_flags` (gateway-node-flags.ts).
 * - The old generation may grow to 1.5 times what survived the last full
 *   collection before the next one, instead of up to 4 times under a high
 *   allocation rate: 15 to 40 MB less peak memory under load, at no CPU
 *   cost the bench could see (a request's objects die young; what reaches
 *   the old generation is mostly garbage).
 */
const DEFAULTS: Array<[pattern: RegExp, flag: string]> = [
  [/liftoff|wasm-tier-up/, '--liftoff-only'],
  [/heap-growing-percent/, '--heap-growing-percent=50'],
];

for (const [pattern, flag] of DEFAULTS) {
  if (!process.execArgv.some((arg) => pattern.test(arg))) setFlagsFromString(flag);
}
