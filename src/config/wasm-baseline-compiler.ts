import { setFlagsFromString } from 'node:v8';

/**
 * WebAssembly in this process (Prisma's query compiler, PGlite's PostgreSQL)
 * runs on V8's baseline compiler, Liftoff, only.
 * Optimizing those large modules in the background costs 35 to 50 MB of
 * resident memory on PostgreSQL and several hundred MB on the first PGlite
 * start, for no gain a benchmark of the gateway can see. Imported first by
 * main.ts, before any WebAssembly module is compiled; a `--liftoff` or
 * `--wasm-tier-up` flag given to node is left alone.
 */
if (!process.execArgv.some((arg) => /liftoff|wasm-tier-up/.test(arg))) setFlagsFromString('--liftoff-only');
