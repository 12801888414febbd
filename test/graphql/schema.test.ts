import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { SCHEMAS } from '../../src/graphql/emit-schema';

const ROOT = path.join(__dirname, '..', '..');
const GENERATED = 'test/graphql/generated/graphql.ts';

describe('committed GraphQL artefacts', () => {
  it.each(SCHEMAS.map((s) => [path.basename(s.file), s] as const))('%s is the schema the code builds (npm run schema:emit rewrites it)', async (_name, { file, print }) => {
    expect(readFileSync(file, 'utf8')).toBe(await print());
  });

  it(`${GENERATED} is what codegen.yml makes of schema.graphql (npm run codegen rewrites it)`, () => {
    const config = parseYaml(readFileSync(path.join(ROOT, 'codegen.yml'), 'utf8'));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-codegen-'));
    try {
      // The same configuration, writing to a scratch file instead of over the committed one.
      const scratch = path.join(dir, 'graphql.ts');
      config.generates = { [scratch]: config.generates[GENERATED] };
      writeFileSync(path.join(dir, 'codegen.yml'), stringifyYaml(config));
      execFileSync(process.execPath, [path.join(ROOT, 'scripts/codegen.js'), '--config', path.join(dir, 'codegen.yml')], { cwd: ROOT });
      expect(readFileSync(path.join(ROOT, GENERATED), 'utf8')).toBe(readFileSync(scratch, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
