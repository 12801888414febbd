import { Pool } from 'undici';

/**
 * A closed-loop load generator: N workers, each with at most one request in
 * flight, each sending its next request as soon as the previous answer is
 * fully read, for a fixed time. Keep-alive connections come from one undici
 * Pool per target, kept for the whole run so that phases never pay for
 * connection set-up.
 */

export interface Target {
  /** Label used in results ("gateway", "direct"). */
  name: string;
  origin: string;
  pool: Pool;
  headers: Record<string, string>;
}

let aborted = false;

/** Stops every load loop at its next request (Ctrl-C, a failed run). */
export function abortAllLoad(): void {
  aborted = true;
}

export function createTarget(name: string, origin: string, headers: Record<string, string>, connections: number): Target {
  const pool = new Pool(origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 120_000,
    keepAliveMaxTimeout: 600_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  return { name, origin, pool, headers: { 'content-type': 'application/json', ...headers } };
}

export interface RequestSpec {
  method: 'POST' | 'GET';
  path: string;
  body?: string;
  /** Whether the answer is an event stream, for which the first body byte is timed. */
  stream: boolean;
  /** Checks a complete 2xx body; returns a problem, or undefined when it is right. */
  validate?: (body: string) => string | undefined;
}

export interface LoadSpec {
  /** With several targets, each worker sends to them in turn (paired measurements at low concurrency). */
  targets: Target[];
  connections: number;
  /** How long to send; `Infinity` with `requests` to send a fixed number. */
  durationMs: number;
  /** Send at most this many requests in all (across workers and targets), then stop. */
  requests?: number;
  /** The request, or the request for each target when they speak different protocols. */
  request: RequestSpec | ((target: Target) => RequestSpec);
}

export interface TargetResult {
  target: string;
  /** Requests completed inside the window (whatever their outcome). */
  requests: number;
  ok: number;
  /** Answers with a status outside 2xx. */
  non2xx: number;
  /** Transport failures and 2xx answers that failed validation. */
  failures: number;
  /** status code -> count, non-2xx only. */
  statuses: Record<string, number>;
  /** A few problems, verbatim, for the report. */
  errorSamples: string[];
  /** Full request latency (send to last body byte), ms, successful requests only. */
  latencyMs: number[];
  /** Send to first body byte, ms, successful streamed requests only. */
  ttfbMs: number[];
  /** Seconds from the first send to the last answer. */
  elapsedS: number;
}

export interface LoadResult {
  connections: number;
  elapsedS: number;
  byTarget: Map<string, TargetResult>;
}

function emptyResult(target: string): TargetResult {
  return { target, requests: 0, ok: 0, non2xx: 0, failures: 0, statuses: {}, errorSamples: [], latencyMs: [], ttfbMs: [], elapsedS: 0 };
}

const MAX_ERROR_SAMPLES = 5;

function sample(result: TargetResult, problem: string): void {
  if (result.errorSamples.length < MAX_ERROR_SAMPLES) result.errorSamples.push(problem);
}

/** Runs the load and resolves once every request in flight at the deadline has finished. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const byTarget = new Map(spec.targets.map((t) => [t.name, emptyResult(t.name)]));
  const started = performance.now();
  const deadline = started + spec.durationMs;
  const budget = spec.requests ?? Number.POSITIVE_INFINITY;
  let issued = 0;
  const worker = async (index: number) => {
    // Workers start on different targets so that both are busy from the first instant.
    for (let turn = index; !aborted && performance.now() < deadline && issued < budget; turn++) {
      issued++;
      const target = spec.targets[turn % spec.targets.length]!;
      const request = typeof spec.request === 'function' ? spec.request(target) : spec.request;
      const ok = await oneRequest(target, request, byTarget.get(target.name)!);
      // A failure can come back at once (connection refused, pool closed): yield to the event loop so a
      // run of them cannot starve timers, signals and clean-up.
      if (!ok) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, (_, i) => worker(i)));
  const elapsedS = (performance.now() - started) / 1000;
  for (const result of byTarget.values()) result.elapsedS = elapsedS;
  return { connections: spec.connections, elapsedS, byTarget };
}

/** Sends one request and records it; false when it failed in any way. */
async function oneRequest(target: Target, req: RequestSpec, result: TargetResult): Promise<boolean> {
  const sent = performance.now();
  let firstByte = Number.NaN;
  try {
    const res = await target.pool.request({ method: req.method, path: req.path, headers: target.headers, body: req.body });
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      if (Number.isNaN(firstByte)) firstByte = performance.now();
      chunks.push(chunk as Buffer);
    }
    const done = performance.now();
    result.requests++;
    const text = Buffer.concat(chunks).toString('utf8');
    if (res.statusCode < 200 || res.statusCode > 299) {
      result.non2xx++;
      result.statuses[res.statusCode] = (result.statuses[res.statusCode] ?? 0) + 1;
      sample(result, `HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
      return false;
    }
    const problem = req.validate?.(text);
    if (problem) {
      result.failures++;
      sample(result, problem);
      return false;
    }
    result.ok++;
    result.latencyMs.push(done - sent);
    if (req.stream) result.ttfbMs.push(firstByte - sent);
    return true;
  } catch (err) {
    result.requests++;
    result.failures++;
    sample(result, `request failed: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
    return false;
  }
}

/** How many requests went to one target (warm-ups included), for the usage-record check. */
export function requestsSent(result: LoadResult, target: string): number {
  return result.byTarget.get(target)?.requests ?? 0;
}
