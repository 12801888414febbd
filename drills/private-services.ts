import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from '../bench/cleanup';
import { freePort } from '../bench/processes';
import { waitFor } from './drill-kit';

/**
 * A PostgreSQL server and a Redis server of the drill's own, on free ports
 * and in temporary folders, so that stopping or pausing them harms nobody
 * else on the machine. PostgreSQL refuses to run as root: as root, the
 * server runs as the `postgres` user.
 */

function postgresBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = path.join(root, version, 'bin', name);
    if (existsSync(bin)) return bin;
  }
  return name; // on the PATH
}

export interface PrivatePostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'drill-pg-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? 'postgres' : os.userInfo().username;
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  const run = (bin: string, args: string[]) => execFileSync(asRoot ? 'runuser' : postgresBin(bin), asRoot ? ['-u', 'postgres', '--', postgresBin(bin), ...args] : args, { stdio: 'pipe' });
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', user, '--no-sync']);
  const port = await freePort();
  const pgCtl = (action: 'start' | 'stop') =>
    run('pg_ctl', action === 'start'
      ? ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']
      : ['-D', data, '-m', 'immediate', '-w', 'stop']);
  pgCtl('start');
  onCleanup(() => {
    try {
      pgCtl('stop');
    } catch {
      // already stopped
    }
  });
  return {
    url: `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/postgres`,
    // `-m immediate`: the server goes away as in a crash, connections cut without a goodbye.
    stop: async () => void pgCtl('stop'),
    start: async () => void pgCtl('start'),
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const line = execFileSync('getent', ['passwd', name], { encoding: 'utf8' }).trim().split(':');
  return { uid: Number(line[2]), gid: Number(line[3]) };
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** Runs one command with redis-cli. */
  cli(...args: string[]): string;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  onCleanup(() => void child.kill('SIGKILL'));
  const cli = (...args: string[]) => execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' }).trim();
  if (!(await waitFor(() => cli('ping') === 'PONG', 10_000, 100))) throw new Error('the drill\'s Redis did not start');
  return { url: `redis://127.0.0.1:${port}`, port, cli };
}
