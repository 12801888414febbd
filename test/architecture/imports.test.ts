import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const { checkImports, checkRepository, LAYERS } = require('../../scripts/check-imports') as {
  checkImports: (srcDir: string) => string[];
  checkRepository: (srcDir: string, packagesDir: string) => string[];
  LAYERS: Record<string, number>;
};
const { drawing, transitiveReduction } = require('../../scripts/draw-structure') as {
  drawing: (srcDir?: string) => string;
  transitiveReduction: (edges: Map<string, Map<string, string[]>>) => Map<string, string[]>;
};

const root = path.join(__dirname, '..', '..');

describe('imports between the top-level parts of src/', () => {
  it('follow the layers of ARCHITECTURE.md: no circle, nothing imported upwards, providers on the foundation only; packages reached by their entry, standing alone', () => {
    expect(checkRepository(path.join(root, 'src'), path.join(root, 'packages'))).toEqual([]);
  });

  it('are drawn in docs/structure.md as they are now (npm run structure:draw)', () => {
    expect(readFileSync(path.join(root, 'docs', 'structure.md'), 'utf8')).toBe(drawing());
  });

  it('src/README.md names every top-level part of src/ that has a layer', () => {
    const readme = readFileSync(path.join(root, 'src', 'README.md'), 'utf8');
    const present = readdirSync(path.join(root, 'src')).map((name) => name.replace(/\.ts$/, ''));
    const missing = Object.keys(LAYERS).filter((part) => present.includes(part) && !readme.includes(`\`${part}`));
    expect(missing).toEqual([]);
  });

  it('the drawing keeps only the arrows no longer path implies', () => {
    const edges = new Map([
      ['a', new Map([['b', []], ['c', []]])],
      ['b', new Map([['c', []]])],
      ['c', new Map([['d', []]])],
    ]);
    const reduced = transitiveReduction(edges);
    expect(reduced.get('a')).toEqual(['b']);
    expect(reduced.get('b')).toEqual(['c']);
    expect(reduced.get('c')).toEqual(['d']);
  });

  describe('the check itself', () => {
    let dir: string;
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'imports-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('finds a circle, an upward import and a provider that imports a capability', () => {
      write('videos/video-service.ts', "import { nextPollAt } from '../jobs/poll-schedule';\n");
      write('jobs/poll-schedule.ts', "import type { VideoService } from '../videos/video-service';\n");
      write('catalog/catalog.ts', "import { Errors } from '../http/errors';\n");
      write('http/errors.ts', 'export const Errors = {};\n');
      write('providers/chat-adapter.ts', "import type { ChatRequest } from '../chat/chat-request-schema';\n");
      write('chat/chat-request-schema.ts', 'export type ChatRequest = object;\n');
      const problems = checkImports(dir);
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^circle: jobs <-> videos/),
          expect.stringMatching(/^catalog \(layer 3\) imports the higher http/),
          expect.stringMatching(/^providers\/ imports chat\//),
        ]),
      );
    });

    it('names a new folder that has no layer yet', () => {
      write('widgets/widget.ts', "import { x } from '../config/x';\n");
      write('config/x.ts', 'export const x = 1;\n');
      expect(checkImports(dir)).toEqual([expect.stringContaining('src/widgets has no layer')]);
    });

    it('finds src/ reaching a package by a path or a subpath, and a package importing beyond itself', () => {
      write('src/config/x.test.ts', "import { startSimulator } from '../../packages/simulator/src/server';\n");
      write('src/config/y.ts', "import type { SimulatorOptions } from '@model-gateway/simulator/dist/options';\n");
      write('src/config/z.ts', "import type { SimulatorHandle } from '@model-gateway/simulator';\n");
      write('packages/simulator/package.json', JSON.stringify({ name: '@model-gateway/simulator', dependencies: { busboy: '^1.6.0' } }));
      write('packages/simulator/src/options.ts', "import { packageRoot } from '../../../src/config/package-root';\nimport busboy from 'busboy';\nimport { join } from 'node:path';\n");
      write('packages/simulator/src/server.ts', "import express from 'express';\nimport { resolve } from './options';\n");
      expect(checkRepository(path.join(dir, 'src'), path.join(dir, 'packages')).sort()).toEqual([
        "@model-gateway/simulator: src/options.ts imports '../../../src/config/package-root', outside the package and its dependencies",
        "@model-gateway/simulator: src/server.ts imports 'express', outside the package and its dependencies",
        "config/x.test.ts imports '../../packages/simulator/src/server': import the package by its name (@model-gateway/...), its public entry",
        "config/y.ts imports '@model-gateway/simulator/dist/options': import the package by its name (@model-gateway/...), its public entry",
      ]);
    });

    it('ignores test files, which may reach across folders', () => {
      write('config/x.test.ts', "import { y } from '../chat/y';\n");
      write('chat/y.ts', "import { x } from '../config/x';\n");
      write('config/x.ts', 'export const x = 1;\n');
      expect(checkImports(dir)).toEqual([]);
    });
  });
});
