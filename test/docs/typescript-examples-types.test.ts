import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { codeBlocks } from '../support/markdown-code-blocks';

/**
 * The TypeScript examples of the documentation compile under `strict`
 * against the SDKs' own types, as a reader's project would compile them
 * (the examples' run, in the other test files of this folder, only strips
 * the types).
 */
const root = path.join(__dirname, '..', '..');
const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('the TypeScript examples of the documentation', () => {
  // Under the checkout, so that the examples' imports find node_modules and its types.
  const folder = path.join(root, 'test-output', `doc-examples-types-${process.pid}`);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('type-check under strict', async () => {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const files: string[] = [];
    for (const page of pages) {
      for (const block of codeBlocks(readFileSync(path.join(root, page), 'utf8'), 'ts')) {
        const name = `${page.replace(/[/.]/g, '_')}-line-${block.line}.mts`;
        writeFileSync(path.join(folder, name), block.code);
        files.push(name);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    writeFileSync(path.join(folder, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      include: ['*.mts'],
    }));
    const out = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', folder], { timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, output: `${stdout}${stderr}` });
      });
    });
    // Each error names its page and the line of the block's fence, e.g. docs_endpoints_md-line-371.mts(5,3).
    expect(out).toEqual({ code: 0, output: '' });
  });
});
