#!/usr/bin/env node
// Generates the Prisma client (src/generated/prisma) at install time.
//
// It runs the same two pieces `prisma generate` runs, without the Prisma CLI
// package: @prisma/internals reads schema.prisma (WebAssembly, offline) and
// @prisma/client-generator-ts writes the client. The CLI would also install
// Prisma Studio and `prisma dev` (about 200 MB with their dependencies) and
// insist on a native schema engine that generate never runs; the gateway
// applies its migrations with its own migrator (src/db/migrate.ts), so the
// CLI is not needed. Both packages are pinned to @prisma/client's version.
'use strict';
const path = require('node:path');

const root = path.join(__dirname, '..');
let internals;
let generatorTs;
try {
  internals = require('@prisma/internals');
  generatorTs = require('@prisma/client-generator-ts');
} catch (err) {
  if (err && err.code === 'MODULE_NOT_FOUND') {
    // A production install (--omit=dev) has no generator: the client was generated and compiled at build time.
    process.exit(0);
  }
  throw err;
}

(async () => {
  const schemaContext = await internals.loadSchemaContext({
    schemaPath: { cliProvidedPath: path.join(root, 'prisma', 'schema.prisma') },
    cwd: root,
  });
  const generators = await internals.getGenerators({
    schemaContext,
    registry: { 'prisma-client': { type: 'in-process', generator: new generatorTs.PrismaClientTsGenerator() } },
    version: require('@prisma/engines-version').enginesVersion,
    skipDownload: true,
    cliCommand: 'generate',
  });
  try {
    for (const generator of generators) {
      await generator.generate();
      console.log(`Generated the Prisma client (${generator.getProvider()}) in ${path.relative(root, generator.config.output?.value ?? '')}`);
    }
  } finally {
    for (const generator of generators) generator.stop();
  }
})().catch((err) => {
  console.error('Prisma client generation failed:', err);
  process.exit(1);
});
