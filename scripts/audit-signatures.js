#!/usr/bin/env node
// Checks the registry signatures (and provenance attestations, where a
// package has them) of every installed package: `npm audit signatures`.
// A missing or invalid signature fails.
//
// npm first fetches Sigstore's trust root (tuf-repo-cdn.sigstore.dev). When
// that host cannot be reached, or npm cannot get to the registry at all,
// nothing was checked: that is said in a banner and the exit code is 0, so
// an offline machine can still run the rest of CI; with
// SUPPLY_CHAIN_STRICT=true it fails instead (for machines that are online).
'use strict';
const { spawnSync } = require('node:child_process');

const npm = process.env.npm_execpath
  ? [process.execPath, [process.env.npm_execpath]]
  : [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
// `npm run --silent` passes its log level on; npm's own error lines are what tell an unreachable host.
const env = { ...process.env, npm_config_loglevel: 'warn' };
const result = spawnSync(npm[0], [...npm[1], 'audit', 'signatures', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=5000'], { encoding: 'utf8', env });
process.stdout.write(result.stdout ?? '');
process.stderr.write(result.stderr ?? '');
if (result.error) throw result.error;
if (result.status === 0) process.exit(0);

const output = `${result.stdout}\n${result.stderr}`;
const unreachable = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH)\b/.test(output) && /npm error (code|errno|network)/.test(output);
if (!unreachable || process.env.SUPPLY_CHAIN_STRICT === 'true') process.exit(result.status ?? 1);

const host = /request to (https?:\/\/[^/\s]+)/.exec(output)?.[1] ?? 'the registry or Sigstore';
const bar = '!'.repeat(78);
process.stderr.write(
  `\n${bar}\n  WARNING: package signatures were NOT checked: ${host} could not be reached\n` +
    '  from this machine. Run `npm audit signatures` where it can be, or set\n' +
    `  SUPPLY_CHAIN_STRICT=true to make this a failure.\n${bar}\n\n`,
);
process.exit(0);
