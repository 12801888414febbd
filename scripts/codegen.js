#!/usr/bin/env node
// Writes the typed GraphQL operations codegen.yml asks for (the tests' typed
// documents), with @graphql-codegen/core and the plugins it names: the same
// output as the graphql-codegen CLI for this configuration (one local schema
// file, one folder of operation files), without the CLI's loaders for remote
// schemas, watchers and prompts (about 170 packages and 47 MB).
//
// usage: node scripts/codegen.js [--config codegen.yml]
'use strict';
const { readFileSync, readdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { codegen } = require('@graphql-codegen/core');
const { buildSchema, parse } = require('graphql');
const { parse: parseYaml } = require('yaml');

const PLUGIN_PACKAGES = {
  'typescript-operations': '@graphql-codegen/typescript-operations',
  'typed-document-node': '@graphql-codegen/typed-document-node',
  typescript: '@graphql-codegen/typescript',
};

/** The files a `folder/*.ext` pattern names (the only pattern form codegen.yml uses), sorted. */
function filesOf(pattern, base) {
  const dir = path.resolve(base, path.dirname(pattern));
  const name = path.basename(pattern);
  if (!name.startsWith('*') || name.slice(1).includes('*')) throw new Error(`codegen: only "folder/*.ext" document patterns are supported, not "${pattern}"`);
  const ext = name.slice(1);
  return readdirSync(dir).filter((f) => f.endsWith(ext)).sort().map((f) => path.join(dir, f));
}

async function main() {
  const args = process.argv.slice(2);
  const configFile = path.resolve(args[0] === '--config' && args[1] ? args[1] : 'codegen.yml');
  const config = parseYaml(readFileSync(configFile, 'utf8'));
  const base = process.cwd();
  const sdl = readFileSync(path.resolve(base, config.schema), 'utf8');
  const documents = [].concat(config.documents).flatMap((pattern) => filesOf(pattern, base))
    .map((location) => ({ location, document: parse(readFileSync(location, 'utf8')) }));
  for (const [output, target] of Object.entries(config.generates)) {
    const pluginNames = target.plugins.map((p) => (typeof p === 'string' ? p : Object.keys(p)[0]));
    const pluginMap = Object.fromEntries(pluginNames.map((name) => {
      if (!PLUGIN_PACKAGES[name]) throw new Error(`codegen: unknown plugin "${name}" (add it to scripts/codegen.js)`);
      return [name, require(PLUGIN_PACKAGES[name])];
    }));
    const text = await codegen({
      filename: output,
      schema: parse(sdl),
      schemaAst: buildSchema(sdl),
      documents,
      config: target.config ?? {},
      plugins: pluginNames.map((name) => ({ [name]: {} })),
      pluginMap,
    });
    writeFileSync(path.resolve(base, output), text);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
