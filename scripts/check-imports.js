#!/usr/bin/env node
'use strict';
/**
 * Holds the import direction of ARCHITECTURE.md: reads every relative import
 * between the top-level parts of src/ (a folder, or a file such as
 * main.ts) and fails on
 *   - a circle between top-level parts,
 *   - an import from a lower layer into a higher one (LAYERS below),
 *   - `providers/` importing anything but the foundation.
 * A top-level part missing from LAYERS is itself a failure: a new folder
 * takes its place in the table (and in ARCHITECTURE.md) when it is made.
 * The packages beside the gateway (packages/<name>/) are reached from src/
 * only through their public entry, by package name: no file of src/, tests
 * included, imports a path into packages/ or a subpath of a package
 * (`@model-gateway/simulator/...`); and a package's own sources import only
 * their own files, Node's built-ins and the dependencies in its package.json.
 *
 * Usage: node scripts/check-imports.js [src-dir [packages-dir]]. `npm test` runs it too.
 */
const { readdirSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');

/** Higher layers may import lower ones, never the other way round. */
const LAYERS = {
  main: 9,
  // The composition root: builds the services, mounts the doors, starts the jobs, stops it all.
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
  'generate-content': 6,
  messages: 6,
  search: 6,
  mcp: 6,
  decisions: 6,
  credentials: 6,
  'console-route': 6,
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

/** The packages of the repository beside the gateway, reached by these names only. */
const PACKAGE_SCOPE = '@model-gateway/';

function sourceFiles(dir, { withTests = false } = {}) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full, { withTests }));
    else if (/\.ts$/.test(name) && (withTests || !/\.(test|spec)\.ts$/.test(name)) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function importSpecs(file) {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1] || m[2] || m[3] || m[4]).filter(Boolean);
}

/** src/ files (tests too) that reach a package by a path or a subpath instead of its public entry. */
function packageEntryProblems(srcDir) {
  const src = path.resolve(srcDir);
  const problems = [];
  for (const file of sourceFiles(src, { withTests: true })) {
    for (const spec of importSpecs(file)) {
      const intoPackages = spec.startsWith('.') && !path.resolve(path.dirname(file), spec).startsWith(src + path.sep) && /(^|[\\/])packages([\\/]|$)/.test(spec);
      const subpath = spec.startsWith(PACKAGE_SCOPE) && spec.split('/').length > 2;
      if (intoPackages || subpath) problems.push(`${path.relative(src, file)} imports '${spec}': import the package by its name (${PACKAGE_SCOPE}...), its public entry`);
    }
  }
  return problems;
}

/** A package's sources that import beyond themselves: only their own files, node: built-ins and their declared dependencies. */
function standAloneProblems(packageDir) {
  const root = path.resolve(packageDir);
  const own = path.join(root, 'src');
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const allowed = new Set(Object.keys(manifest.dependencies || {}));
  const problems = [];
  for (const file of sourceFiles(own)) {
    for (const spec of importSpecs(file)) {
      const outside = spec.startsWith('.') ? !path.resolve(path.dirname(file), spec).startsWith(own + path.sep) : !spec.startsWith('node:') && !allowed.has(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
      if (outside) problems.push(`${manifest.name}: ${path.relative(root, file)} imports '${spec}', outside the package and its dependencies`);
    }
  }
  return problems;
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
    for (const spec of importSpecs(file)) {
      if (!spec.startsWith('.')) continue;
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

/** The workspace packages (packages/<name>/ with a package.json). */
function packageDirs(packagesDir) {
  const dir = path.resolve(packagesDir);
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.map((name) => path.join(dir, name)).filter((full) => {
    try {
      return statSync(path.join(full, 'package.json')).isFile();
    } catch {
      return false;
    }
  });
}

/** Every rule: the layers of src/, the packages reached by their entry, each package standing alone. */
function checkRepository(srcDir, packagesDir) {
  return [...checkImports(srcDir), ...packageEntryProblems(srcDir), ...packageDirs(packagesDir).flatMap(standAloneProblems)];
}

module.exports = { LAYERS, LAYER_NAMES, folderGraph, circles, checkImports, packageEntryProblems, standAloneProblems, checkRepository };

if (require.main === module) {
  const srcDir = process.argv[2] || path.join(__dirname, '..', 'src');
  const packagesDir = process.argv[3] || path.join(__dirname, '..', 'packages');
  const problems = checkRepository(srcDir, packagesDir);
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log('imports between the top-level parts of src/ follow ARCHITECTURE.md; packages/ are reached by their entry and stand alone');
}
