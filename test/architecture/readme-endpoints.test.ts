import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The README's list of endpoints names every route the gateway serves: each
 * path an express router, a direct model-call route or a door mounts in
 * src/ (`.route(…)`, `modelCallRoute(…)`, `router.get(…)`, `app.all(…)`,
 * the catalog's switches), its parameters as `{name}`. A route added to the
 * code without its line in the README fails here.
 */
const root = path.join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = sources(path.join(root, 'src')).map((file) => readFileSync(file, 'utf8'));
/** `export const NAME = '/path'` across src/, for paths written with a constant. */
const constants = new Map(files.flatMap((text) => [...text.matchAll(/export const (\w+) = '(\/[^']*)'/g)].map((m) => [m[1], m[2]] as const)));

function pathsOf(text: string): string[] {
  // A loop over sub-paths (`for (const [path, kind] of [['projects', …], …])`) mounts each of them.
  const loopPaths = [...text.matchAll(/for \(const \[path, \w+\] of \[(.*?)\] as const\)/g)].flatMap((m) => [...m[1].matchAll(/\['([\w-]+)'/g)].map((p) => p[1]));
  const args = [...text.matchAll(/(?:\.route|modelCallRoute|router\.get|app\.all|enabledSwitch)\(\s*([`'][^`']*[`']|[A-Z_]+)/g)].map((m) => m[1]);
  return args.flatMap((arg) => {
    const raw = /^[A-Z_]+$/.test(arg) ? constants.get(arg) : arg.slice(1, -1).replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => constants.get(name) ?? `\${${name}}`);
    if (raw === undefined || !raw.startsWith('/')) return [];
    return raw.includes('${path}') ? loopPaths.map((p) => raw.replace('${path}', p)) : [raw];
  });
}

/** A path with its parameters (`:id`, `{id}`) as `{}`, and without a trailing slash. */
const normalized = (p: string) => p.replace(/:\w+/g, '{}').replace(/\{[^}]*\}/g, '{}').replace(/\/$/, '');

describe("the README's endpoints", () => {
  it('list every route the gateway serves', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Endpoints'), readme.indexOf('\n## ', readme.indexOf('## Endpoints') + 1));
    const listed = new Set([...section.matchAll(/`(?:(?:GET|POST|PUT|PATCH|DELETE)(?:, )?)+ ?(\/[^`\s?:]*)/g)].map((m) => normalized(m[1])));
    const served = [...new Set(files.flatMap(pathsOf).map(normalized))].sort();
    expect(served.length).toBeGreaterThan(30);
    expect(served.filter((p) => !listed.has(p))).toEqual([]);
  });
});
