#!/usr/bin/env node
// Generates the Prisma client at install time. `prisma generate` never runs the
// native schema engine, but the CLI insists that its binary exists and would try
// to download it; pointing it at any existing file keeps the install offline.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
const cli = path.join(__dirname, '..', 'node_modules', 'prisma', 'build', 'index.js');
if (!require('node:fs').existsSync(cli)) {
  // A production install (--omit=dev) has no Prisma CLI; the client was generated and compiled at build time.
  process.exit(0);
}
execFileSync(process.execPath, [cli, 'generate'], { stdio: 'inherit', env, cwd: path.join(__dirname, '..') });
