#!/usr/bin/env node
'use strict';
/**
 * Fails when a committed schema file (schema.graphql, admin-schema.graphql,
 * subgraph.graphql) is not the schema the code builds.
 * Reads the compiled code: run `npm run build` first.
 */
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const compiled = path.join(__dirname, '..', 'dist', 'graphql', 'emit-schema.js');
if (!existsSync(compiled)) {
  console.error(`${path.relative(process.cwd(), compiled)} is missing: run npm run build first`);
  process.exit(1);
}
const { SCHEMAS } = require(compiled);

(async () => {
  for (const { file, print } of SCHEMAS) {
    const name = path.basename(file);
    let expected;
    try {
      expected = await print();
    } catch (err) {
      console.error(`could not build the GraphQL schema of ${name}:`, err);
      process.exitCode = 1;
      continue;
    }
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (committed === expected) {
      console.log(`${name} is up to date`);
      continue;
    }
    console.error(`${name} is stale: run npm run schema:emit`);
    const line = firstDifferentLine(committed, expected);
    console.error(`  first difference at line ${line.number}:\n    committed: ${line.committed}\n    code:      ${line.expected}`);
    process.exitCode = 1;
  }
})();

function firstDifferentLine(committed, expected) {
  const a = committed.split('\n');
  const b = expected.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return { number: i + 1, committed: a[i] ?? '(end of file)', expected: b[i] ?? '(end of file)' };
}
