import { rmSync } from 'node:fs';
import { eventually } from './eventually';
import { readEnv } from '../../src/config/env';
import { loadGatewayConfig, validateConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { startGateway, type RunningGateway } from '../../src/gateway/start';
import { createLogger, type LogLevel } from '../../src/observability/logger';
import { freshPgliteDataDir } from './pglite-template';
import { createTestDatabase } from './postgres-database';

export type TestDatabase = 'pglite' | 'postgres';

/** Both databases the suite runs on; `TEST_DATABASES=pglite` narrows it. */
export const TEST_DATABASES: TestDatabase[] = (process.env.TEST_DATABASES ?? 'pglite,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is TestDatabase => s === 'pglite' || s === 'postgres');

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestGateway {
  url: string;
  /** `${url}/v1`, the base URL for the openai SDK. */
  baseURL: string;
  /** The built-in simulator the default catalog routes to. */
  simulatorUrl: string;
  gateway: RunningGateway;
  /** The PostgreSQL database of this gateway (postgres variant only). */
  databaseUrl?: string;
  /** GATEWAY_DATA_DIR of this gateway (PGlite's folder, the usage spool, local file storage). */
  dataDir: string;
  createKey(body?: { name?: string; models?: string[]; expires_at?: string; allowed_domains?: string[] }): Promise<string>;
  /** The gateway's error-level log lines so far (the first 200), for failure messages. */
  errorLogs(): string[];
  /** Every log line so far (the first 2,000), when the gateway was started with `logLevel`. */
  logs(): string[];
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  database?: TestDatabase;
  /** A config to use instead of the default catalog. */
  config?: GatewayConfigInput;
  env?: Record<string, string>;
  /** Keep every log line at this level and above (`logs()`), instead of the error lines only. */
  logLevel?: LogLevel;
}

/** The real gateway on an ephemeral loopback port, with its simulator, on a fresh database. */
export async function startTestGateway(opts: TestGatewayOptions = {}): Promise<TestGateway> {
  const database = opts.database ?? 'pglite';
  const pg = database === 'postgres' ? await createTestDatabase() : undefined;
  const dataDir = await freshPgliteDataDir();
  const rawEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_REQUESTS: 'false',
    GATEWAY_VIDEO_POLL_IDLE_MS: '50',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
    ...opts.env,
  };
  const env = readEnv(rawEnv);
  const loaded = opts.config ? { config: validateConfig(opts.config, 'test config'), document: opts.config, source: 'test config' } : loadGatewayConfig(rawEnv);
  // Error lines are kept (not printed): a test whose request failed unexpectedly can show why.
  const errorLines: string[] = [];
  const lines: string[] = [];
  const logger = process.env.TEST_LOGS
    ? createLogger('debug')
    : opts.logLevel
      ? createLogger(opts.logLevel, {}, (line) => void (lines.length < 2_000 && lines.push(line)))
      : createLogger('error', {}, (line) => void (errorLines.length < 200 && errorLines.push(line)));
  const gateway = await startGateway({ env, rawEnv, loaded, logger });
  return {
    url: gateway.url,
    baseURL: `${gateway.url}/v1`,
    simulatorUrl: gateway.simulator?.url ?? '',
    gateway,
    databaseUrl: pg?.url,
    dataDir: env.dataDir,
    errorLogs: () => (opts.logLevel ? lines.filter((l) => /"level":"(error|fatal)"/.test(l)) : errorLines),
    logs: () => lines,
    async createKey(body = {}) {
      const res = await fetch(`${gateway.url}/api/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'test', ...body }),
      });
      if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { key: string }).key;
    },
    async close() {
      await gateway.shutdown('test finished');
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Fetches a usage record as the given key. */
export async function fetchUsageRecord(t: TestGateway, key: string, requestId: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.url}/api/usage/requests/${requestId}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() };
}

/** A request's usage record once it is written (records are written in batches, just after the answer). */
export function usageRecordOf(t: TestGateway, key: string, requestId: string): Promise<any> {
  return eventually(async () => {
    const r = await fetchUsageRecord(t, key, requestId);
    return r.status === 200 ? r.body : undefined;
  }, `usage record ${requestId}`);
}

/** The simulator's log of the upstream requests it received. */
export async function simulatorRequests(t: TestGateway): Promise<{ requests: Array<{ method: string; path: string; body: any }>; aborted: number }> {
  const res = await fetch(`${t.simulatorUrl}/_sim/requests`);
  return (await res.json()) as never;
}
