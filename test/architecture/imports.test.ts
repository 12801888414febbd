import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const { checkImports, LAYERS } = require('../../scripts/check-imports') as {
  checkImports: (srcDir: string) => string[];
  LAYERS: Record<string, number>;
};
const { drawing, transitiveReduction } = require('../../scripts/draw-structure') as {
  drawing: (srcDir?: string) => string;
  transitiveReduction: (edges: Map<string, Map<string, string[]>>) => Map<string, string[]>;
};
const ROOT = path.join(__dirname, '..', '..');

describe('imports between the top-level parts of src/', () => {
  it('follow the layers of ARCHITECTURE.md: no circle, nothing imported upwards, providers on the foundation only', () => {
    expect(checkImports(path.join(__dirname, '..', '..', 'src'))).toEqual([]);
  });

  it('are drawn in docs/structure.md as they are now (npm run structure:draw)', () => {
    expect(readFileSync(path.join(ROOT, 'docs', 'structure.md'), 'utf8')).toBe(drawing());
  });

  it('src/README.md names every top-level part of src/ that has a layer', () => {
    const readme = readFileSync(path.join(ROOT, 'src', 'README.md'), 'utf8');
    const present = readdirSync(path.join(ROOT, 'src')).map((name) => name.replace(/\.ts$/, ''));
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

    it('ignores test files, which may reach across folders', () => {
      write('config/x.test.ts', "import { y } from '../chat/y';\n");
      write('chat/y.ts', "import { x } from '../config/x';\n");
      write('config/x.ts', 'export const x = 1;\n');
      expect(checkImports(dir)).toEqual([]);
    });
  });
});
