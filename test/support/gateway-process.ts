import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/config/package-root';
import { GATEWAY_PROCESS_ENV, gatewayNodeFlags } from '../../src/config/gateway-node-flags';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/** Writes a config to a temporary file for GATEWAY_CONFIG. */
export function writeConfigFile(config: GatewayConfigInput): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'gateway-config-')), 'gateway.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/**
 * The built gateway (`dist/main.js serve`) as its own process, for tests
 * that kill it or run several instances. `npm test` builds first.
 */
export async function spawnGateway(env: Record<string, string>, timeoutMs = 45_000): Promise<GatewayProcess> {
  const main = path.join(packageRoot(), 'dist', 'main.js');
  if (!existsSync(main)) throw new Error('dist/main.js is missing: run `npm run build` (npm test does it first)');
  const child = spawn(process.execPath, [...gatewayNodeFlags(), main, 'serve'], {
    // Info level at least: the start-up line carries the address.
    env: { PATH: process.env.PATH, ...GATEWAY_PROCESS_ENV, PORT: '0', HOST: '127.0.0.1', LOG_REQUESTS: 'false', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start in time:\n${out}`));
    }, timeoutMs);
    const onData = () => {
      const url = listeningUrl(out);
      if (url) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(url);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    kill(signal) {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The `url` of the gateway's `gateway listening` log line (one JSON object per line), once it was written whole. */
function listeningUrl(out: string): string | undefined {
  for (const line of out.split('\n')) {
    if (!line.includes('"gateway listening"')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'gateway listening' && entry.url) return entry.url;
    } catch {
      // The line is still arriving.
    }
  }
  return undefined;
}
