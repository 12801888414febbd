import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GATEWAY_PROCESS_ENV, gatewayNodeFlags } from '../../src/config/gateway-node-flags';

const root = path.join(__dirname, '..', '..');

describe('the production image', () => {
  it('compiles only the gateway: no benchmark, no tests, no fixtures', () => {
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const listed = execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--listFilesOnly'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file && !file.includes(`${path.sep}node_modules${path.sep}`))
      .map((file) => path.relative(root, file));
    // The simulator package is read through its declarations (when built), never compiled into the gateway.
    const simulatorTypes = (file: string) => file.startsWith(path.join('packages', 'simulator', 'dist') + path.sep) && file.endsWith('.d.ts');
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.filter((file) => !simulatorTypes(file) && (!file.startsWith(`src${path.sep}`) || /\.test\.ts$/.test(file)))).toEqual([]);
  });

  it('leaves the simulator out unless built with WITH_SIMULATOR=1', () => {
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const [build, runtime] = dockerfile.split(/^FROM .* AS runtime$/m);
    expect(build).toMatch(/^ARG WITH_SIMULATOR=0$/m);
    // npm keeps a workspace's link through `npm prune --omit=dev`: the build stage removes it unless asked.
    const shipping = build.slice(build.lastIndexOf('npm prune --omit=dev'));
    expect(shipping).toMatch(/if \[ "\$WITH_SIMULATOR" = "1" \]; then[^]*packages-shipped\/simulator[^]*else[^]*rm node_modules\/@model-gateway\/simulator;[^]*fi/);
    const runtimeCopies = runtime.split('\n').filter((line) => /^\s*COPY\b/.test(line));
    expect(runtimeCopies.filter((line) => /packages/.test(line))).toEqual(['COPY --from=build --chown=node:node /app/packages-shipped ./packages']);
    expect(runtimeCopies.filter((line) => /simulator/.test(line))).toEqual([]);
  });

  it('copies nothing of bench/ or test/ into the runtime stage', () => {
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const copies = dockerfile.split('\n').filter((line) => /^\s*COPY\b/.test(line));
    expect(copies.length).toBeGreaterThan(3);
    expect(copies.filter((line) => /\b(test|bench|fixtures)\b/.test(line))).toEqual([]);
    expect(readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['bench', 'test']));
  });

  it('starts the gateway with the Node flags and process environment of package.json, as npm start does', () => {
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const cmd = dockerfile.split('\n').filter((line) => /^CMD\b/.test(line));
    expect(cmd).toEqual([`CMD ${JSON.stringify(['node', ...gatewayNodeFlags(), 'dist/main.js', 'serve']).replace(/","/g, '", "')}`]);
    expect(gatewayNodeFlags()).toContain('--max-semi-space-size=8');
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} node $npm_package_config_gateway_node_flags dist/main.js serve');
    for (const [name, value] of Object.entries(GATEWAY_PROCESS_ENV)) expect(dockerfile).toMatch(new RegExp(`^\\s+${name}=${value}$`, 'm'));
  });
});
