import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import YAML from 'yaml';
import { validateConfig } from '../../src/config/load-config';
import { codeBlocks, shellCommands, type CodeBlock } from './markdown-code-blocks';
import { fastVideoConfig } from './fast-video-config';
import { startMcpServer, weatherTools, type TestMcpServer } from './mcp-test-servers';
import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from './test-gateway';

/**
 * Runs the code examples of the documentation against a test gateway, as a
 * reader would: TypeScript with the real SDKs from node_modules, Python with
 * the official Python SDKs (in the virtualenv of docs/examples/requirements.txt),
 * shell commands with the system's curl, GraphQL documents over HTTP and
 * graphql-ws. Each example reads the gateway's address and key from
 * `GATEWAY_URL` and `GATEWAY_KEY` (and the admin token from
 * `GATEWAY_ADMIN_TOKEN`), as the pages say.
 *
 * A page says what each example must print in an HTML comment just above its
 * block, `<!-- expect: TEXT -->` (one or more): every TEXT must be in what the
 * example printed, and it must exit 0. A value a page shows as elided, such
 * as `acct_…` or `sk-gw-…`, is the latest id of that kind an earlier example
 * printed, as a reader would paste it.
 */

const root = path.join(__dirname, '..', '..');

/** Ids the pages elide (`acct_…`), by the prefix they start with. */
const ID_PREFIXES = ['acct_', 'key_', 'video_', 'file-', 'req_', 'resp_', 'budget_', 'sk-gw-'];
const ELIDED = new RegExp(`(?<![A-Za-z0-9_])(${ID_PREFIXES.map((p) => p.replace(/-/g, '\\-')).join('|')})[A-Za-z0-9]*…`, 'g');
const PRINTED = new RegExp(`(?<![A-Za-z0-9_])(${ID_PREFIXES.map((p) => p.replace(/-/g, '\\-')).join('|')})[A-Za-z0-9]{8,}`, 'g');

/** Where the Python SDKs are: `DOCS_PYTHON`, or the checkout's `.venv` made from docs/examples/requirements.txt. */
export const docsPython = process.env.DOCS_PYTHON ?? path.join(root, '.venv', 'bin', 'python');

/** Whether Python examples can run here; in CI (`CI=true`) their absence fails instead. */
export function pythonAvailable(): boolean {
  if (existsSync(docsPython)) return true;
  if (process.env.CI === 'true') throw new Error(`no Python for the documentation's examples at ${docsPython}: .ci/run makes it from docs/examples/requirements.txt`);
  const bar = '!'.repeat(78);
  console.warn(
    `\n${bar}\n  WARNING: no Python virtualenv at ${docsPython}: the Python examples of the docs are SKIPPED.\n` +
      `  Make it with: python3 -m venv .venv && .venv/bin/pip install -r docs/examples/requirements.txt\n${bar}\n`,
  );
  return false;
}

export interface ExampleRun {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<ExampleRun> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: opts.cwd, env: opts.env, timeout: opts.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** The texts a block must print: the `<!-- expect: … -->` comments right above it. */
function expectations(markdown: string, block: CodeBlock): string[] {
  const lines = markdown.split('\n');
  const found: string[] = [];
  for (let i = block.line - 2; i >= 0; i--) {
    const line = lines[i].trim();
    if (line === '') continue;
    const m = /^<!-- expect: (.*) -->$/.exec(line);
    if (!m) break;
    found.unshift(m[1]);
  }
  return found;
}

/** The package.json scripts, for `npm run …` lines a page shows but a test does not run. */
const scripts = Object.keys((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

/**
 * Shell lines a page may show that are checked rather than run here: they
 * start, build or install the gateway, or run the suite, the drills or the
 * bench, each far longer than an example (and some run this very test).
 */
const CHECKED: Array<[RegExp, (command: string) => void]> = [
  [/^npm (ci|test|start)\b/, () => undefined],
  [/^(\w+=\S+ )*npm (start|test)$/, () => undefined],
  [/^(\w+=\S+ )*npm run ([\w:-]+)/, (command) => {
    const script = /npm run ([\w:-]+)/.exec(command)![1];
    if (!scripts.includes(script)) throw new Error(`\`${command}\` runs no script of package.json`);
  }],
  [/^(\w+=\S+ )+node /, () => undefined],
  [/^cp \.env\.example \.env$/, () => {
    if (!existsSync(path.join(root, '.env.example'))) throw new Error('.env.example is missing');
  }],
  [/^docker compose /, () => undefined],
  [/^python3 -m venv /, () => undefined],
  [/^\.venv\/bin\/pip install -r docs\/examples\/requirements\.txt$/, () => {
    if (!existsSync(path.join(root, 'docs', 'examples', 'requirements.txt'))) throw new Error('docs/examples/requirements.txt is missing');
  }],
];

export interface DocExamples {
  /** Runs one block of the page and checks what it printed; a block of a language that is not run is checked or passes. */
  run(block: CodeBlock): Promise<void>;
  /** The blocks of the page, for `it.each`. */
  blocks: CodeBlock[];
  /** How many examples ran (commands and programs). */
  ran(): number;
  close(): void;
}

export interface DocExamplesOptions {
  /** The page, from the repository's root (`docs/endpoints.md`). */
  page: string;
  gateway: TestGateway;
  /** The API key the examples use (`GATEWAY_KEY`). */
  key: string;
  /** Whether Python examples run (see pythonAvailable). */
  python: boolean;
}

/** A runner for one page's examples, in the page's order, with a scratch folder of its own as the working directory. */
export function docExamples({ page, gateway, key, python }: DocExamplesOptions): DocExamples {
  const markdown = readFileSync(path.join(root, page), 'utf8');
  // Under the checkout, so that the TypeScript examples' imports find node_modules.
  const scratch = path.join(root, 'test-output', 'doc-examples', `${path.basename(page, '.md')}-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  // The document the file examples upload.
  writeFileSync(path.join(scratch, 'report.pdf'), '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  const seen = new Map<string, string>();
  const shell: Record<string, string> = {};
  let count = 0;

  const env = (): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? scratch,
    GATEWAY_URL: gateway.url,
    GATEWAY_KEY: key,
    GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
    ...shell,
  });

  /** The page's elided ids, filled in with what earlier examples printed. */
  const filled = (code: string, where: string) =>
    code.replace(/http:\/\/localhost:8080/g, gateway.url).replace(ELIDED, (_, prefix: string) => {
      const value = seen.get(prefix);
      if (!value) throw new Error(`${where}: shows an elided ${prefix}… id that no earlier example printed`);
      return value;
    });
  const remember = (output: string) => {
    for (const m of output.matchAll(PRINTED)) seen.set(m[1], m[0]);
  };

  function check(where: string, out: ExampleRun, expected: string[], allowError = expected.some((text) => text.includes('error'))) {
    expect({ where, code: out.code, stderr: out.code === 0 ? '' : out.stderr.slice(-2000), stdout: out.code === 0 ? '' : out.stdout.slice(-2000) }).toEqual({ where, code: 0, stderr: '', stdout: '' });
    for (const text of expected) {
      if (!out.stdout.includes(text)) throw new Error(`${where}: printed no \`${text}\`; it printed:\n${out.stdout.slice(0, 3000)}\n${out.stderr.slice(-1000)}`);
    }
    // An error envelope is a failed example, unless the page says it shows one.
    if (!allowError) expect({ where, error: /"error":\s*\{/.test(out.stdout) }).toEqual({ where, error: false });
    remember(out.stdout);
  }

  async function runShell(block: CodeBlock, where: string, expected: string[]) {
    const outputs: string[] = [];
    let ranAny = false;
    for (const raw of shellCommands(block.code)) {
      const command = filled(raw, where);
      const exported = /^export (\w+)=(\S+)$/.exec(command);
      if (exported) {
        // The reader's gateway and admin token are the test gateway's.
        if (exported[1] !== 'GATEWAY_URL' && exported[1] !== 'GATEWAY_ADMIN_TOKEN') shell[exported[1]] = exported[2];
        continue;
      }
      const keys = /^npm run keys -- (.*)$/.exec(command);
      if (/^(curl|jq) /.test(command) || keys) {
        const line = keys ? `node dist/main.js keys ${keys[1]}` : command;
        const out = await run('/bin/bash', ['--norc', '-o', 'pipefail', '-c', line], { cwd: keys ? root : scratch, env: keys ? { ...env(), GATEWAY_URL: gateway.url } : env() });
        count++;
        ranAny = true;
        if (keys) out.stderr = out.stderr.replace(/The key is shown only once: store it now.\n/, '');
        check(`${where}: ${raw}`, out, [], expected.some((text) => text.includes('error')));
        outputs.push(out.stdout);
        continue;
      }
      const checked = CHECKED.find(([pattern]) => pattern.test(command));
      if (!checked) throw new Error(`${where}: shows a command the docs' tests neither run nor check: ${raw}`);
      checked[1](command);
    }
    if (!ranAny) {
      if (expected.length) throw new Error(`${where}: expects output from a block that runs nothing`);
      return;
    }
    if (!expected.length) throw new Error(`${where}: a block that runs needs an <!-- expect: … --> comment above it`);
    check(where, { code: 0, stdout: outputs.join('\n'), stderr: '' }, expected);
  }

  async function runProgram(block: CodeBlock, where: string, expected: string[]) {
    if (!expected.length) throw new Error(`${where}: an example needs an <!-- expect: … --> comment above it`);
    const name = `example-${block.line}`;
    let out: ExampleRun;
    if (block.language === 'ts') {
      const js = ts.transpileModule(block.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }, reportDiagnostics: true });
      if (js.diagnostics?.length) throw new Error(`${where}: ${ts.flattenDiagnosticMessageText(js.diagnostics[0].messageText, '\n')}`);
      writeFileSync(path.join(scratch, `${name}.mjs`), js.outputText);
      out = await run(process.execPath, [`${name}.mjs`], { cwd: scratch, env: env() });
    } else {
      writeFileSync(path.join(scratch, `${name}.py`), block.code);
      out = await run(docsPython, [`${name}.py`], { cwd: scratch, env: env() });
    }
    count++;
    check(where, out, expected);
  }

  async function runGraphql(block: CodeBlock, where: string, expected: string[]) {
    if (!expected.length) throw new Error(`${where}: an example needs an <!-- expect: … --> comment above it`);
    const query = filled(block.code, where);
    let stdout: string;
    if (/^\s*subscription\b/.test(query)) {
      const events: unknown[] = [];
      const client = createClient({ url: `${gateway.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${where}: the subscription did not complete within 15 s; events: ${JSON.stringify(events)}`)), 15_000);
          client.subscribe({ query }, {
            next: (event) => void events.push(event),
            error: (err) => (clearTimeout(timer), reject(err instanceof Error ? err : new Error(JSON.stringify(err)))),
            complete: () => (clearTimeout(timer), resolve()),
          });
        });
      } finally {
        await client.dispose();
      }
      stdout = events.map((e) => JSON.stringify(e)).join('\n');
    } else {
      const res = await fetch(`${gateway.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      stdout = await res.text();
      expect({ where, status: res.status }).toEqual({ where, status: 200 });
      expect({ where, errors: (JSON.parse(stdout) as { errors?: unknown }).errors }).toEqual({ where, errors: undefined });
    }
    count++;
    check(where, { code: 0, stdout, stderr: '' }, expected);
  }

  return {
    blocks: codeBlocks(markdown),
    ran: () => count,
    async run(block) {
      const where = `${page}:${block.line}`;
      const expected = expectations(markdown, block);
      switch (block.language) {
        case 'sh':
        case 'bash':
          return runShell(block, where, expected);
        case 'ts':
          return runProgram(block, where, expected);
        case 'python':
          if (!python) return;
          return runProgram(block, where, expected);
        case 'graphql':
          return runGraphql(block, where, expected);
        case 'yaml': {
          // A catalog file: the gateway must take it.
          validateConfig(YAML.parse(block.code), where);
          return;
        }
        case 'json':
        case 'text':
        case '':
          // What an answer looks like, or a drawing: shown, not run.
          return;
        default:
          throw new Error(`${where}: a \`${block.language}\` block, which the docs' tests cannot run`);
      }
    },
    close() {
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * One test file's walk through documentation pages: one gateway (decisions
 * and question generation on, video polling in milliseconds) with a key of
 * its own for the whole file, and each page's blocks run in the page's order
 * as tests of their own.
 */
export function describeDocExamples(pages: string[]): void {
  const python = pythonAvailable();
  let t: TestGateway;
  let key: string;
  // The MCP server the /mcp examples reach.
  let weather: TestMcpServer;

  beforeAll(async () => {
    weather = await startMcpServer('weather', weatherTools);
    t = await startTestGateway({
      database: TEST_DATABASES.includes('postgres') ? 'postgres' : 'pglite',
      config: { ...fastVideoConfig(), mcp: { servers: [{ name: 'weather', url: weather.url, private: true, price_per_call: '0.002' }] } },
      env: { GATEWAY_DECISIONS_ENABLED: 'true', GATEWAY_DECISIONS_QUESTION_GENERATION: 'true' },
    });
    key = await t.createKey({ name: 'docs' });
  });
  afterAll(async () => {
    await t?.close();
    await weather?.close();
  });

  describe.each(pages)('the examples of %s', (page) => {
    let examples: DocExamples;
    const blocks = codeBlocks(readFileSync(path.join(root, page), 'utf8'));
    beforeAll(() => {
      examples = docExamples({ page, gateway: t, key, python });
    });
    afterAll(() => examples?.close());

    if (!blocks.length) it('shows no code', () => expect(blocks).toEqual([]));
    else it.each(blocks.map((block) => [`${block.language || 'text'} block on line ${block.line} (${block.heading})`, block] as const))('%s', async (_name, block) => {
      await examples.run(block);
    });
  });
}
