import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const { checkImports } = require('../../scripts/check-imports') as { checkImports: (srcDir: string) => string[] };

describe('imports between the top-level parts of src/', () => {
  it('follow the layers of ARCHITECTURE.md: no circle, nothing imported upwards, providers on the foundation only', () => {
    expect(checkImports(path.join(__dirname, '..', '..', 'src'))).toEqual([]);
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
