#!/usr/bin/env node
'use strict';
/**
 * Fails when the committed schema.graphql is not the schema the code builds.
 * Reads the compiled code: run `npm run build` first.
 */
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const compiled = path.join(__dirname, '..', 'dist', 'graphql', 'emit-schema.js');
if (!existsSync(compiled)) {
  console.error(`${path.relative(process.cwd(), compiled)} is missing: run npm run build first`);
  process.exit(1);
}
const { printGatewaySchema, SCHEMA_FILE } = require(compiled);

printGatewaySchema().then(
  (expected) => {
    const committed = existsSync(SCHEMA_FILE) ? readFileSync(SCHEMA_FILE, 'utf8') : '';
    if (committed === expected) {
      console.log('schema.graphql is up to date');
      return;
    }
    console.error('schema.graphql is stale: run npm run schema:emit');
    const line = firstDifferentLine(committed, expected);
    console.error(`  first difference at line ${line.number}:\n    committed: ${line.committed}\n    code:      ${line.expected}`);
    process.exitCode = 1;
  },
  (err) => {
    console.error('could not build the GraphQL schema:', err);
    process.exitCode = 1;
  },
);

function firstDifferentLine(committed, expected) {
  const a = committed.split('\n');
  const b = expected.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return { number: i + 1, committed: a[i] ?? '(end of file)', expected: b[i] ?? '(end of file)' };
}
