import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from '../bench/cleanup';
import { createBenchDatabase, withClient, type BenchDatabase } from '../bench/postgres';
import { createApiKey, startGatewayProcess, startSimulatorProcess, type GatewayProcess, type SimulatorProcess } from '../bench/processes';
import { progress } from '../bench/progress';
import { simulatorProviderEnv } from '../bench/upstream';

/** The simulator, a throw-away database and what a gateway needs to use them. */
export interface DrillStage {
  simulator: SimulatorProcess;
  database: BenchDatabase;
  adminToken: string;
  /** The environment of a gateway on this stage; each instance gets its own data folder from `startGateway`. */
  env: NodeJS.ProcessEnv;
}

export async function openStage(env: NodeJS.ProcessEnv = {}, databaseUrl?: string): Promise<DrillStage> {
  const simulator = await startSimulatorProcess();
  onCleanup(() => simulator.handle.stop(5_000));
  const database = databaseUrl ? { name: 'drill', url: databaseUrl, drop: async () => undefined } : await createBenchDatabase();
  onCleanup(() => database.drop());
  const adminToken = `drill-admin-${randomBytes(12).toString('hex')}`;
  return {
    simulator,
    database,
    adminToken,
    env: { DATABASE_URL: database.url, ...simulatorProviderEnv(simulator.url), GATEWAY_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn', LOG_REQUESTS: 'false', ...env },
  };
}

/** A gateway instance on the stage, with a data folder (spool, files) of its own. */
export async function startGateway(stage: DrillStage, name: string, env: NodeJS.ProcessEnv = {}, dataDir?: string): Promise<GatewayProcess & { dataDir: string }> {
  const dir = dataDir ?? mkdtempSync(path.join(os.tmpdir(), `drill-${name.replace(/\W+/g, '-')}-`));
  if (!dataDir) onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const gateway = await startGatewayProcess({ name, env: { ...stage.env, GATEWAY_DATA_DIR: dir, ...env } });
  onCleanup(() => gateway.handle.stop(5_000));
  progress(`${name} at ${gateway.url} (pid ${gateway.handle.pid})`);
  return { ...gateway, dataDir: dir };
}

export function keyFor(stage: DrillStage, gateway: GatewayProcess, name: string): Promise<string> {
  return createApiKey(gateway, stage.adminToken, name);
}

/** One answered request: what the client saw. */
export interface Answer {
  requestId: string | null;
  status: number;
  /** A 200 whose body was whole (a stream ending in `[DONE]` without an error event). */
  complete: boolean;
  /** The error code of a refusal (the envelope's, or an in-stream error's). */
  code?: string;
  /** The transport failed (no answer at all). */
  failed?: string;
  /** Milliseconds from sending to the end of the answer. */
  ms?: number;
}

/** A chat call as the openai SDK sends it, read to the end. */
export async function chat(origin: string, key: string, content: string, stream = false, model = 'gpt-4.1-mini', timeoutMs = 30_000): Promise<Answer> {
  const started = performance.now();
  const answer = await chatOnce(origin, key, content, stream, model, timeoutMs);
  return { ...answer, ms: Math.round(performance.now() - started) };
}

async function chatOnce(origin: string, key: string, content: string, stream: boolean, model: string, timeoutMs: number): Promise<Answer> {
  try {
    const res = await fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream, ...(stream ? { stream_options: { include_usage: true } } : {}), messages: [{ role: 'user', content }] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const requestId = res.headers.get('x-svc-request-id');
    if (res.status !== 200) return { requestId, status: res.status, complete: false, code: errorCode(text) };
    if (!stream) return { requestId, status: 200, complete: text.includes('"chat.completion"') };
    const inStreamError = /^data: \{"error"/m.test(text) ? errorCode(text.slice(text.search(/^data: \{"error"/m) + 6).split('\n')[0]!) : undefined;
    return { requestId, status: 200, complete: !inStreamError && text.endsWith('data: [DONE]\n\n'), code: inStreamError };
  } catch (err) {
    return { requestId: null, status: 0, complete: false, failed: err instanceof Error ? err.message : String(err) };
  }
}

function errorCode(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? undefined;
  } catch {
    return undefined;
  }
}

/** Runs `send` on `connections` workers until `stop()` says so; resolves with every answer. */
export async function closedLoop(connections: number, stop: () => boolean, send: (n: number) => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  let n = 0;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (!stop()) answers.push(await send(n++));
  }));
  return answers;
}

/** How the usage records of these request ids stand: found, distinct, and the ids without one. */
export function recordsOf(databaseUrl: string, ids: string[]): Promise<{ found: number; distinct: number; missing: string[] }> {
  return withClient(databaseUrl, async (db) => {
    const rows = await db.query<{ id: string }>('SELECT id FROM usage_records WHERE id = ANY($1)', [ids]);
    const seen = new Set(rows.rows.map((r) => r.id));
    return { found: rows.rows.length, distinct: seen.size, missing: ids.filter((id) => !seen.has(id)) };
  });
}

/** A metric of a gateway's `/metrics` (read with the stage's admin token), summed over its labels (NaN when it is not there). */
export async function metricOf(stage: Pick<DrillStage, 'adminToken'>, origin: string, name: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${stage.adminToken}` } })).text();
  let total = Number.NaN;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) total = (Number.isNaN(total) ? 0 : total) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it is true or `timeoutMs` passes; resolves with whether it became true. */
export async function waitFor(probe: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 200): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await Promise.resolve().then(probe).catch(() => false)) return true;
    await sleep(everyMs);
  }
  return false;
}

/** A count with its share of a whole, for the report. */
export const share = (part: number, whole: number) => `${part.toLocaleString('en-US')} of ${whole.toLocaleString('en-US')}`;
