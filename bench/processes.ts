import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { request } from 'undici';
import { packageRoot } from '../src/config/package-root';
import { GATEWAY_PROCESS_ENV, gatewayNodeFlags } from '../src/config/gateway-node-flags';
import { PORTKEY_SERVER } from './peers';

/**
 * The processes under test, each on its own so that /proc figures are theirs
 * alone: the simulator (the upstream) and the gateway. Every child is tracked
 * and killed when the bench exits, however it exits.
 */

/** The built gateway, dist/main.js (`npm run bench` builds it first). */
export const MAIN_JS = path.join(packageRoot(), 'dist', 'main.js');

const children = new Set<ChildProcess>();

/** SIGKILLs every child still running; synchronous, safe in an 'exit' handler. */
export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  children.clear();
}

/** A port nobody listens on right now (bound and released on 127.0.0.1). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Keeps the last lines a child wrote, to show when something goes wrong. */
class OutputTail {
  private lines: string[] = [];
  private partial = '';
  constructor(private readonly max = 60) {}

  push(chunk: Buffer | string): void {
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      this.lines.push(line);
      if (this.lines.length > this.max) this.lines.shift();
    }
  }

  text(): string {
    return [...this.lines, this.partial].filter(Boolean).join('\n');
  }
}

export class ChildHandle {
  readonly exited: Promise<ExitStatus>;
  readonly output = new OutputTail();
  /** Output lines a caller wants to watch for (e.g. the simulator's "listening" line). */
  private lineListeners: Array<(line: string) => void> = [];
  private lineBuffer = '';

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly spawnedAt: number,
  ) {
    children.add(child);
    const onData = (chunk: Buffer) => {
      this.output.push(chunk);
      if (!this.lineListeners.length) return;
      const parts = (this.lineBuffer + chunk.toString()).split('\n');
      this.lineBuffer = parts.pop() ?? '';
      for (const line of parts) for (const listener of this.lineListeners) listener(line);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        children.delete(child);
        resolve({ code, signal });
      });
    });
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.name} has no pid (spawn failed)`);
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  onLine(listener: (line: string) => void): () => void {
    this.lineListeners.push(listener);
    return () => (this.lineListeners = this.lineListeners.filter((l) => l !== listener));
  }

  /** SIGTERM, then SIGKILL after `graceMs`. Resolves with how the process ended. */
  async stop(graceMs = 30_000): Promise<ExitStatus & { killed: boolean }> {
    if (!this.running) return { ...(await this.exited), killed: false };
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)));
    const first = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (first !== 'timeout') return { ...first, killed: false };
    this.child.kill('SIGKILL');
    return { ...(await this.exited), killed: true };
  }

  describeFailure(what: string): Error {
    const tail = this.output.text();
    return new Error(`${this.name}: ${what}${tail ? `\n--- last output of ${this.name} ---\n${tail}` : ''}`);
  }
}

function spawnNode(name: string, nodeArgs: string[], args: string[], env: NodeJS.ProcessEnv, cwd?: string, script = MAIN_JS): ChildHandle {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new ChildHandle(name, child, spawnedAt);
}

/** The environment children start from: the bench's own, minus what would change the gateway's behaviour. */
export function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(OPENAI|ANTHROPIC|GEMINI|XAI|VOYAGE|TAVILY|SERPER|EXA|BRAVE|SEARXNG)_(API_KEY|BASE_URL)$/.test(key)) delete env[key];
    // OTEL_*: the gateway under test exports no traces unless a phase asks for them (tracing-phase.ts).
    if (/^(SIMULATOR_|GATEWAY_|OTEL_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$|LOG_)/.test(key)) delete env[key];
  }
  delete env.NODE_OPTIONS;
  return env;
}

export interface SimulatorProcess {
  handle: ChildHandle;
  url: string;
}

/** `node dist/main.js simulator` on a port of its own choosing; ready when it prints its URL. */
export async function startSimulatorProcess(env: NodeJS.ProcessEnv = {}, timeoutMs = 15_000): Promise<SimulatorProcess> {
  const handle = spawnNode('simulator', [], ['simulator'], { ...baseEnv(), SIMULATOR_PORT: '0', SIMULATOR_HOST: '127.0.0.1', ...env });
  return { handle, url: await listeningUrl(handle, 'simulator_listening', timeoutMs) };
}

/** The bench's floor reference (bare-proxy.ts) in front of `upstreamUrl`; ready when it prints its URL. */
export async function startBareProxyProcess(upstreamUrl: string, timeoutMs = 15_000): Promise<SimulatorProcess> {
  const handle = spawnNode('bare proxy', [], [], { ...baseEnv(), BARE_PROXY_UPSTREAM: upstreamUrl }, undefined, path.join(__dirname, 'bare-proxy.js'));
  return { handle, url: await listeningUrl(handle, 'bare_proxy_listening', timeoutMs) };
}

/** The MCP server of the mcp_tool_call phase (mcp-echo-server.ts); ready when it prints its URL. */
export async function startMcpEchoProcess(timeoutMs = 15_000): Promise<SimulatorProcess> {
  const handle = spawnNode('mcp echo server', [], [], baseEnv(), undefined, path.join(__dirname, 'mcp-echo-server.js'));
  return { handle, url: await listeningUrl(handle, 'mcp_echo_listening', timeoutMs) };
}

/** Waits for a child's one JSON line `{"event": <event>, "url": ...}`. */
function listeningUrl(handle: ChildHandle, eventName: string, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => done(handle.describeFailure(`not listening after ${timeoutMs} ms`)), timeoutMs);
    const off = handle.onLine((line) => {
      try {
        const event = JSON.parse(line) as { event?: string; url?: string };
        if (event.event === eventName && event.url) done(undefined, event.url);
      } catch {
        // not a JSON line
      }
    });
    void handle.exited.then((status) => done(handle.describeFailure(`exited during start-up (${formatExit(status)})`)));
    function done(err: Error | undefined, value?: string) {
      clearTimeout(timer);
      off();
      if (err) reject(err);
      else resolve(value!);
    }
  });
}

export interface GatewayProcess {
  handle: ChildHandle;
  url: string;
  /** Milliseconds from spawn to the first 200 from /healthz. */
  readyMs: number;
}

export interface GatewayStart {
  env: NodeJS.ProcessEnv;
  /** Extra node flags, e.g. `--cpu-prof` (BENCH_GATEWAY_NODE_ARGS). */
  nodeArgs?: string[];
  cwd?: string;
  timeoutMs?: number;
  name?: string;
}

/** `node dist/main.js serve` on a free port; ready when `/healthz` answers 200. */
export async function startGatewayProcess(opts: GatewayStart): Promise<GatewayProcess> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const handle = spawnNode(opts.name ?? 'gateway', [...gatewayNodeFlags(), ...(opts.nodeArgs ?? [])], ['serve'], { ...baseEnv(), ...GATEWAY_PROCESS_ENV, HOST: '127.0.0.1', ...opts.env, PORT: String(port) }, opts.cwd);
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitForHealthz(handle, url, timeoutMs);
      return { handle, url, readyMs: performance.now() - handle.spawnedAt };
    } catch (err) {
      // Someone else took the port between freePort() and listen(): try another one.
      if (attempt < 3 && /EADDRINUSE/.test(handle.output.text())) continue;
      if (handle.running) await handle.stop(5_000);
      throw err;
    }
  }
}

/** Portkey's open-source gateway on a free port (`--headless`: no console); ready when its port answers HTTP. */
export async function startPortkeyProcess(nodeArgs: string[] = [], timeoutMs = 30_000): Promise<GatewayProcess> {
  const port = await freePort();
  const handle = spawnNode('portkey', nodeArgs, [`--port=${port}`, '--headless'], baseEnv(), undefined, PORTKEY_SERVER);
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (!handle.running) throw handle.describeFailure('exited during start-up');
    if ((await probe(`${url}/`)) > 0) return { handle, url, readyMs: performance.now() - handle.spawnedAt };
    await new Promise((r) => setTimeout(r, 20));
  }
  await handle.stop(5_000);
  throw handle.describeFailure(`did not answer HTTP within ${timeoutMs} ms`);
}

async function waitForHealthz(handle: ChildHandle, url: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let exited: ExitStatus | undefined;
  void handle.exited.then((status) => (exited = status));
  while (performance.now() < deadline) {
    if (exited) throw handle.describeFailure(`exited during start-up (${formatExit(exited)})`);
    if ((await probe(`${url}/healthz`)) === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw handle.describeFailure(`/healthz did not answer within ${timeoutMs} ms`);
}

/** Status code of a GET, or 0 when nobody answers. A fresh connection each time. */
function probe(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 1_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', () => resolve(0));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(0));
  });
}

export function formatExit(status: ExitStatus): string {
  return status.signal ? `signal ${status.signal}` : `exit code ${status.code}`;
}

/** Why a SIGTERM'd process did not end with exit code 0, or undefined when it did. */
export function uncleanExit(exit: ExitStatus & { killed: boolean }, graceMs = 30_000): string | undefined {
  if (!exit.killed && exit.code === 0) return undefined;
  if (exit.killed) return `${formatExit(exit)} (still running ${graceMs / 1000} s after SIGTERM; killed)`;
  if (exit.signal === 'SIGTERM') return `${formatExit(exit)} (it died of the signal itself: a SIGTERM listener re-raised it before the graceful shutdown finished)`;
  return formatExit(exit);
}

/** A fresh API key on a running gateway, made with its admin token. */
export async function createApiKey(gateway: GatewayProcess, adminToken: string, name = 'bench'): Promise<string> {
  const res = await request(`${gateway.url}/api/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 201) throw new Error(`creating an API key: HTTP ${res.statusCode}: ${text}`);
  const key = (JSON.parse(text) as { key?: unknown }).key;
  if (typeof key !== 'string') throw new Error(`creating an API key: no "key" in ${text}`);
  return key;
}
