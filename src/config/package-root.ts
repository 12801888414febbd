import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

let cached: string | undefined;

/** The folder holding package.json, found from this file both under `src/` (tests) and `dist/` (built). */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${__dirname}`);
    dir = parent;
  }
  cached = dir;
  return dir;
}

/** The gateway's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
