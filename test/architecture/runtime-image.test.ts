import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');

describe('the production image', () => {
  it('compiles only the gateway: no benchmark, no tests, no fixtures', () => {
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const listed = execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--listFilesOnly'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file && !file.includes(`${path.sep}node_modules${path.sep}`))
      .map((file) => path.relative(root, file));
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.filter((file) => !file.startsWith(`src${path.sep}`) || /\.test\.ts$/.test(file))).toEqual([]);
  });

  it('copies nothing of bench/ or test/ into the runtime stage', () => {
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const copies = dockerfile.split('\n').filter((line) => /^\s*COPY\b/.test(line));
    expect(copies.length).toBeGreaterThan(3);
    expect(copies.filter((line) => /\b(test|bench|fixtures)\b/.test(line))).toEqual([]);
    expect(readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['bench', 'test']));
  });
});
