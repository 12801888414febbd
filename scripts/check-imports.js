#!/usr/bin/env node
'use strict';
/**
 * Holds the import direction of ARCHITECTURE.md: reads every relative import
 * between the top-level parts of src/ (a folder, or a file such as
 * gateway.ts) and fails on
 *   - a circle between top-level parts,
 *   - an import from a lower layer into a higher one (LAYERS below),
 *   - `providers/` importing anything but the foundation.
 * A top-level part missing from LAYERS is itself a failure: a new folder
 * takes its place in the table (and in ARCHITECTURE.md) when it is made.
 *
 * Usage: node scripts/check-imports.js [src-dir]. `npm test` runs it too.
 */
const { readdirSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');

/** Higher layers may import lower ones, never the other way round. */
const LAYERS = {
  main: 9,
  gateway: 8,
  // Doors that start work: GraphQL, and the background jobs.
  graphql: 7,
  jobs: 7,
  // Capabilities: one folder each, with its schemas, service and REST router.
  chat: 6,
  embeddings: 6,
  videos: 6,
  models: 6,
  usage: 6,
  admin: 6,
  files: 6,
  responses: 6,
  search: 6,
  decisions: 6,
  credentials: 6,
  console: 6,
  // REST plumbing the capability routers use.
  http: 5,
  // What every model call shares: request context, routing with fallback, error mapping.
  'model-call': 4,
  // Requests and tokens per minute (rate-limiter-flexible): counted by http/, never importing a capability.
  limits: 4,
  // Shared services.
  catalog: 3,
  billing: 2,
  keys: 1,
  providers: 1,
  // The built-in upstream: stands alone on the foundation.
  simulator: 1,
  // Foundation.
  db: 0.5,
  observability: 0.5,
  // Redis pub/sub between instances (on observability, for its logs and metrics).
  pubsub: 0.5,
  errors: 0,
  config: 0,
  // Time limits that cannot be collected before they fire.
  deadlines: 0,
  generated: 0,
};

/** The name of each layer rank, for the drawing (scripts/draw-structure.js) and src/README.md. */
const LAYER_NAMES = {
  9: 'entry',
  8: 'entry',
  7: 'doors',
  6: 'capabilities',
  5: 'REST plumbing',
  4: 'model call',
  3: 'shared services',
  2: 'shared services',
  1: 'shared services',
  0.5: 'foundation',
  0: 'foundation',
};

/** What `providers/` may import: it turns a normalized request into an upstream call and knows nothing else. */
const PROVIDERS_MAY_IMPORT = new Set(['config', 'deadlines', 'errors', 'observability']);

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.ts$/.test(name) && !/\.(test|spec)\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Edges between top-level parts: Map(from -> Map(to -> [example imports])). */
function folderGraph(srcDir) {
  const src = path.resolve(srcDir);
  const top = (file) => {
    const parts = path.relative(src, file).split(path.sep);
    return parts.length === 1 ? parts[0].replace(/\.ts$/, '') : parts[0];
  };
  const edges = new Map();
  const parts = new Set();
  for (const file of sourceFiles(src)) {
    const from = top(file);
    parts.add(from);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] || m[2] || m[3] || m[4];
      if (!spec || !spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(src + path.sep)) continue;
      const to = top(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const byTarget = edges.get(from);
      if (!byTarget.has(to)) byTarget.set(to, []);
      byTarget.get(to).push(`${path.relative(src, file)} -> ${spec}`);
    }
  }
  return { parts, edges };
}

/** Strongly connected components of more than one part (Tarjan). */
function circles(edges) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const indexOf = new Map();
  const low = new Map();
  const found = [];
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  const visit = (v) => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of (edges.get(v) || new Map()).keys()) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of nodes) if (!indexOf.has(v)) visit(v);
  return found;
}

/** Every broken rule, as a sentence naming an example import. */
function checkImports(srcDir, layers = LAYERS) {
  const { parts, edges } = folderGraph(srcDir);
  const problems = [];
  for (const part of [...parts].sort()) {
    if (!(part in layers)) problems.push(`src/${part} has no layer: add it to LAYERS in scripts/check-imports.js and to ARCHITECTURE.md`);
  }
  for (const circle of circles(edges)) {
    const arrows = circle.flatMap((a) => [...(edges.get(a) || new Map())].filter(([b]) => circle.includes(b)).map(([b, ex]) => `${a} -> ${b} (${ex[0]})`));
    problems.push(`circle: ${circle.join(' <-> ')}: ${arrows.join('; ')}`);
  }
  for (const [from, targets] of edges) {
    for (const [to, examples] of targets) {
      if (from === 'providers' && !PROVIDERS_MAY_IMPORT.has(to)) problems.push(`providers/ imports ${to}/: ${examples[0]}`);
      else if (from in layers && to in layers && layers[to] > layers[from]) problems.push(`${from} (layer ${layers[from]}) imports the higher ${to} (layer ${layers[to]}): ${examples[0]}`);
    }
  }
  return problems;
}

module.exports = { LAYERS, LAYER_NAMES, folderGraph, circles, checkImports };

if (require.main === module) {
  const srcDir = process.argv[2] || path.join(__dirname, '..', 'src');
  const problems = checkImports(srcDir);
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log('imports between the top-level parts of src/ follow ARCHITECTURE.md');
}
