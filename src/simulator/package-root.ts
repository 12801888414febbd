import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder holding package.json, found by walking up from this file, so
 * that paths relative to the project resolve the same from `src/` under
 * ts-jest and from compiled `dist/`.
 */
export function findPackageRoot(startDir: string = __dirname): string {
  let dir = startDir;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${startDir}`);
    dir = parent;
  }
  return dir;
}
