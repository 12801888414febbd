#!/usr/bin/env node
// Builds only when the sources changed since the last successful build.
//
//   node scripts/build-if-stale.js          the gateway and console (`npm run build`)
//   node scripts/build-if-stale.js bench    the benchmark and drills (dist-bench/)
//
// A build's stamp (in its output folder) holds a hash of the contents of its
// sources; the build runs when the stamp is missing or differs, or an output is
// gone, and the stamp is written only after the build succeeded. `npm start`,
// `npm test`, the drills, the benchmark and `npm run keys` call this, so one
// build serves them all. FORCE_BUILD=1 builds regardless.
'use strict';
const { createHash } = require('node:crypto');
const { execSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const shared = ['package-lock.json', 'tsconfig.json', 'prisma', 'packages'];

const TARGETS = {
  gateway: {
    sources: [...shared, 'src', 'console', 'tsconfig.build.json'],
    skip: ['console/dist', 'console/node_modules'],
    outputs: ['dist/main.js', 'console/dist/index.html'],
    stamp: 'dist/.build-stamp',
    command: 'npm run build --silent',
  },
  bench: {
    sources: [...shared, 'src', 'bench', 'drills', 'test/support', 'tsconfig.bench.json'],
    skip: [],
    outputs: ['dist-bench/drills/run.js', 'dist-bench/bench/run.js'],
    stamp: 'dist-bench/.build-stamp',
    command: 'npx tsc -p tsconfig.bench.json',
  },
};

/** Every file under `rel` (a file or folder), sorted, leaving out `skip`, node_modules and test files (no build compiles them). */
function files(rel, skip) {
  const abs = path.join(root, rel);
  if (!existsSync(abs) || skip.includes(rel)) return [];
  if (!statSync(abs).isDirectory()) return rel.endsWith('.test.ts') ? [] : [rel];
  return readdirSync(abs)
    .filter((name) => name !== 'node_modules' && name !== 'dist')
    .sort()
    .flatMap((name) => files(path.posix.join(rel, name), skip));
}

function sourcesDigest(target) {
  const hash = createHash('sha256');
  for (const rel of target.sources.flatMap((s) => files(s, target.skip))) {
    hash.update(rel).update('\0').update(readFileSync(path.join(root, rel))).update('\0');
  }
  return hash.digest('hex');
}

const name = process.argv[2] ?? 'gateway';
const target = TARGETS[name];
if (!target) {
  console.error(`build-if-stale: unknown target ${name}; there are: ${Object.keys(TARGETS).join(', ')}`);
  process.exit(2);
}
const stampFile = path.join(root, target.stamp);
const digest = sourcesDigest(target);
const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
const fresh = stamp === digest && target.outputs.every((o) => existsSync(path.join(root, o)));
if (fresh && !process.env.FORCE_BUILD) process.exit(0);

const started = Date.now();
console.error(`build-if-stale: building ${name} (${stamp ? 'sources changed' : 'no earlier build'})`);
try {
  execSync(target.command, { cwd: root, stdio: 'inherit' });
} catch {
  process.exit(1);
}
mkdirSync(path.dirname(stampFile), { recursive: true });
writeFileSync(stampFile, digest + '\n');
console.error(`build-if-stale: built ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
