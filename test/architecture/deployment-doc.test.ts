import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import YAML from 'yaml';
import { validateConfig } from '../../src/config/load-config';
import { needsSimulator, resolveProviders } from '../../src/providers/resolved-provider';
import { compose, dockerfileEnv, dockerfileInstructions, envExample, resolvedEnvironment, sampleSecrets } from '../support/compose-file';
import { variablesTheGatewayIgnores } from '../support/gateway-variables';
import { codeBlocks, shellCommands } from '../support/markdown-code-blocks';
import { createTestDatabase } from '../support/postgres-database';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * Every command and file docs/deployment.md shows, in the page's order, is
 * run here or checked against what it names. Docker itself is not run (no
 * engine here): a `docker compose` command is checked against
 * docker-compose.yml, and what it runs inside a container (the gateway's
 * own commands, pg_dump and pg_restore) runs here against a gateway on
 * PostgreSQL, the compose file's database, with its addresses in place of
 * the published ports.
 */
const root = path.join(__dirname, '..', '..');
const page = readFileSync(path.join(root, 'docs', 'deployment.md'), 'utf8');

/** The page's fenced blocks of one language, their list indentation removed. */
const blocks = (language: string): string[] => codeBlocks(page, language).map((block) => block.code);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: opts.cwd ?? root, env: { PATH: process.env.PATH ?? '', ...opts.env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** `docker compose SUB [flags] [SERVICE [COMMAND]]`, split as compose reads it. */
function composeCommand(command: string): { sub: string; flags: string[][]; service?: string; rest: string } {
  let rest = command.replace(/^docker compose /, '');
  const take = (pattern: RegExp) => {
    const m = pattern.exec(rest)!;
    rest = rest.slice(m[0].length);
    return m[1];
  };
  const sub = take(/^(\S+)\s*/);
  const flags: string[][] = [];
  while (rest.startsWith('-')) {
    const flag = take(/^(\S+)\s*/);
    flags.push(flag === '-v' ? [flag, take(/^("[^"]*"|\S+)\s*/).replace(/^"|"$/g, '')] : [flag]);
  }
  const service = rest ? take(/^(\S+)\s*/) : undefined;
  return { sub, flags, service, rest };
}

describe('docs/deployment.md', () => {
  let t: TestGateway;
  let scratch: string;
  /** The variables the page's commands read from the operator's shell (set by its `export` lines). */
  const shell: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestGateway({ database: 'postgres', env: { GATEWAY_OPS_PORT: '0' } });
    scratch = mkdtempSync(path.join(os.tmpdir(), 'gateway-deployment-doc-'));
  });
  afterAll(async () => {
    await t?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** The gateway's container, here: its variables that matter, pointed at the test's gateway and database. */
  const containerEnv = () => ({
    PORT: new URL(t.url).port, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, DATABASE_URL: t.databaseUrl!, GATEWAY_DATA_DIR: scratch, LOG_LEVEL: 'warn',
  });
  /** The published ports of .env.example, as the page uses them, to this gateway's. */
  const published = (command: string) =>
    command.replace(/localhost:(\d+)/g, (_, port: string) => {
      if (port === envExample.PUBLISHED_PORT) return `127.0.0.1:${new URL(t.url).port}`;
      if (port === envExample.PUBLISHED_OPS_PORT) return `127.0.0.1:${new URL(t.gateway.opsUrl!).port}`;
      throw new Error(`localhost:${port} is neither published port of .env.example`);
    });

  const checks: Array<[RegExp, (command: string) => Promise<void> | void]> = [
    [/^cp \.env\.example \.env$/, () => expect(existsSync(path.join(root, '.env.example'))).toBe(true)],
    [/^openssl rand -hex \d+$/, async (command) => {
      const out = await run('/bin/sh', ['-c', command]);
      expect(out.code).toBe(0);
      // Good for each secret: long enough for the admin token, and nothing to escape in DATABASE_URL.
      const secret = out.stdout.trim();
      expect(secret).toMatch(/^[0-9a-f]{32,}$/);
      expect(new URL(`postgres://gateway:${secret}@postgres:5432/gateway`).password).toBe(secret);
    }],
    [/^export GATEWAY_KEY=/, () => {
      // The page's `keys create` came before and printed the key.
      expect(shell.GATEWAY_KEY).toMatch(/^sk-gw-/);
    }],
    [/^curl /, async (command) => {
      const out = await run('/bin/bash', ['--norc', '-o', 'pipefail', '-c', published(command)], { env: shell });
      expect({ command, code: out.code, stderr: out.stderr }).toEqual({ command, code: 0, stderr: '' });
      expect(out.stdout).not.toBe('');
      // The readiness answer the page quotes.
      if (command.endsWith('/readyz')) expect(page).toContain(`\`${out.stdout.trim()}\``);
    }],
    [/^docker compose /, async (command) => {
      const { sub, flags, service, rest } = composeCommand(command);
      const services = Object.keys(compose.services);
      const flagNames = flags.map(([flag]) => flag);
      if (['up', 'down', 'ps', 'logs', 'build', 'stop', 'start'].includes(sub)) {
        expect(flagNames.filter((f) => !['-d', '--build', '--wait', '-f', '-v'].includes(f))).toEqual([]);
        for (const name of [service, ...rest.split(/\s+/)].filter(Boolean)) expect(services).toContain(name);
        return;
      }
      expect(['exec', 'run']).toContain(sub);
      expect(flagNames.filter((f) => !['-T', '--rm', '--no-deps', '-v'].includes(f))).toEqual([]);
      expect(services).toContain(service);
      if (service === 'gateway') {
        // What the image's CMD runs too: node dist/main.js, here against the test's gateway and database.
        const [node, main, ...args] = rest.split(/\s+/);
        expect([node, main]).toEqual(['node', 'dist/main.js']);
        const out = await run(process.execPath, [main, ...args], { env: containerEnv() });
        expect({ command, code: out.code, stderr: out.stderr.replace(/The key is shown only once: store it now.\n/, '') }).toEqual({ command, code: 0, stderr: '' });
        if (args[0] === 'keys' && args[1] === 'create') shell.GATEWAY_KEY = (JSON.parse(out.stdout) as { key: string }).key;
      } else if (service === 'postgres') {
        const pg = resolvedEnvironment('postgres');
        expect(rest).toContain(` -U ${pg.POSTGRES_USER} -d ${pg.POSTGRES_DB} `);
        await runPostgresTool(rest.replace(` -U ${pg.POSTGRES_USER} -d ${pg.POSTGRES_DB} `, ' -d "$TARGET" '));
      } else {
        // The bucket service's image with a script of the page's own: the same alias as the service's, the gateway's bucket.
        expect(service).toBe('minio-bucket');
        const script = /^'(.*)'$/.exec(rest)![1];
        const serviceScript = [compose.services['minio-bucket'].command].flat().join(' ').replace(/\$\$\{(\w+)\}/g, '$$$1');
        expect(script.startsWith(serviceScript.slice(0, serviceScript.indexOf(' && ')))).toBe(true);
        expect(script).toContain(` store/${resolvedEnvironment('gateway').GATEWAY_S3_BUCKET} `);
        const mounted = flags.find(([flag]) => flag === '-v')![1].split(':')[1];
        expect(script).toMatch(new RegExp(` ${mounted}$`));
        const shellVariables = [...script.matchAll(/\$(\w+)/g)].map((m) => m[1]);
        expect(Object.keys(resolvedEnvironment('minio-bucket'))).toEqual(expect.arrayContaining(shellVariables));
      }
    }],
    [/^docker (build|run) /, async (command) => {
      const words = command.split(/\s+/);
      const values = (flag: string) => words.flatMap((word, i) => (words[i - 1] === flag ? [word] : []));
      const image = dockerfileEnv();
      for (const arg of values('--build-arg')) expect(dockerfileInstructions('ARG').map((a) => a.split('=')[0])).toContain(arg.split('=')[0]);
      for (const tag of values('-t')) expect(tag).toBe(compose.services.gateway.image);
      for (const ports of values('-p')) expect(ports.split(':')[1]).toBe(image.PORT);
      for (const volume of values('-v')) expect(volume.split(':')[1]).toBe(image.GATEWAY_DATA_DIR);
      const variables = Object.fromEntries(values('-e').map((pair) => [pair.split('=')[0], sampleSecrets.GATEWAY_ADMIN_TOKEN]));
      expect(await variablesTheGatewayIgnores(variables)).toEqual([]);
      expect(words.at(-1)).toBe(words[1] === 'build' ? '.' : compose.services.gateway.image);
    }],
  ];

  /** pg_dump writes a dump of the gateway's database; pg_restore reads it into an empty one, which then holds what the gateway's held. */
  const dumps: string[] = [];
  async function runPostgresTool(command: string): Promise<void> {
    const tool = command.split(/\s+/)[0];
    expect(['pg_dump', 'pg_restore']).toContain(tool);
    const target = tool === 'pg_dump' ? { url: t.databaseUrl!, drop: async () => undefined } : await createTestDatabase({ empty: true });
    try {
      if (tool === 'pg_restore') {
        // The page's restore reads the file its dump wrote, by an example name.
        const file = /<\s*(\S+)$/.exec(command)![1];
        expect(dumps).toHaveLength(1);
        copyFileSync(path.join(scratch, dumps[0]), path.join(scratch, file));
      }
      const out = await run('/bin/bash', ['--norc', '-o', 'pipefail', '-c', command], { cwd: scratch, env: { TARGET: target.url } });
      expect({ command, code: out.code, stderr: out.stderr }).toEqual({ command, code: 0, stderr: '' });
      if (tool === 'pg_dump') dumps.push(...readdirSync(scratch).filter((f) => f.endsWith('.dump')));
      else {
        const source = await contentsOf(t.databaseUrl!);
        expect(source.keys.length).toBeGreaterThan(0);
        expect(await contentsOf(target.url)).toEqual(source);
      }
    } finally {
      await target.drop();
    }
  }

  it('shows only commands it runs or checks, and each works', async () => {
    const seen: string[] = [];
    for (const command of blocks('sh').flatMap(shellCommands)) {
      const check = checks.find(([pattern]) => pattern.test(command));
      if (!check) throw new Error(`docs/deployment.md shows a command this test neither runs nor checks: ${command}`);
      await check[1](command);
      seen.push(command.split(' ').slice(0, 3).join(' '));
    }
    // The page's path: start, look, make a key, call, back up and restore, upgrade.
    expect(seen).toEqual(expect.arrayContaining(['docker compose up', 'curl -fsS localhost:9464/readyz', 'docker compose exec', 'docker compose run']));
    expect(dumps).toHaveLength(1);
  });

  it('shows a compose override the gateway reads, and a catalog file that runs without the simulator', async () => {
    const yamls = blocks('yaml').map((text) => YAML.parse(text) as { services?: Record<string, { environment: Record<string, string>; volumes: string[] }> });
    expect(yamls).toHaveLength(2);
    const [override, catalog] = yamls;
    expect(Object.keys(override.services!)).toEqual(['gateway']);
    const { environment, volumes } = override.services!.gateway;
    expect(await variablesTheGatewayIgnores({ ...resolvedEnvironment('gateway'), ...environment })).toEqual([]);
    // The catalog file it names is mounted there.
    expect(volumes.map((v) => v.split(':')[1])).toContain(environment.GATEWAY_CONFIG);

    const config = validateConfig(catalog, 'docs/deployment.md');
    expect(needsSimulator(config)).toBe(false);
    expect(resolveProviders(config, { OPENAI_API_KEY: 'sk-upstream' }, undefined).get('openai')).toMatchObject({ simulated: false, apiKey: 'sk-upstream' });
    expect(() => resolveProviders(config, {}, undefined)).toThrow(/OPENAI_API_KEY/);
  });
});

/** What a restore must carry over: the migrations applied, and the API keys. */
async function contentsOf(url: string): Promise<{ migrations: string[]; keys: string[] }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const migrations = (await client.query<{ name: string }>('SELECT "name" FROM "_gateway_migrations" ORDER BY "name"')).rows.map((r) => r.name);
    const keys = (await client.query<{ id: string }>('SELECT "id" FROM "api_keys" ORDER BY "id"')).rows.map((r) => r.id);
    return { migrations, keys };
  } finally {
    await client.end();
  }
}
