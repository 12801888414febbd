import type { Target } from './load';
import type { NoiseSample } from './proc-stats';
import type { GatewayProcess, SimulatorProcess } from './processes';
import type { Row } from './table';

/** Run settings, from the environment. */
export interface Settings {
  /** `npm run bench:quick` (BENCH_QUICK=1): the quick phases, short windows, and the regression guard's failures. */
  quick: boolean;
  /** Measured window of every load phase (BENCH_SECONDS, default 8). */
  seconds: number;
  /** Warm-up before every measured window (BENCH_WARMUP_SECONDS, default 1.5). */
  warmupSeconds: number;
  /** Concurrency of the loaded phases (BENCH_CONNECTIONS, default 50). */
  connections: number;
  /** How long a freshly started gateway idles before its RSS is read (BENCH_IDLE_SECONDS, default 3). */
  idleSeconds: number;
  /** Answer length, `[sim words=N]` (BENCH_WORDS, default 20). */
  words: number;
  /** Milliseconds between stream events, `[sim pace=N]` (BENCH_PACE_MS, default 2): the first event leaves at once. */
  paceMs: number;
  /** Extra node flags for the gateway process (BENCH_GATEWAY_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"). */
  gatewayNodeArgs: string[];
  /** Answer length of the anthropic_stream phase, `[sim words=N]` (BENCH_ANTHROPIC_WORDS, default 200). */
  anthropicWords: number;
  /** Video tasks submitted in the video_tasks phase (BENCH_VIDEO_TASKS, default 1000). */
  videoTasks: number;
  /** How long the simulator takes to generate one video (BENCH_VIDEO_GENERATION_MS, default 20000). */
  videoGenerationMs: number;
  /** Redis shared by the two gateway instances of the video_tasks phase (BENCH_REDIS_URL, default redis://127.0.0.1:6379). */
  redisUrl: string;
  /** Write bench-results.json (BENCH_JSON=1). */
  json: boolean;
  /** Phase ids to run (BENCH_PHASES, comma-separated; "embedded" for the PGlite starts); empty runs all. */
  only: string[];
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got '${raw}'`);
  return value;
}

/** The phases of `npm run bench:quick` (BENCH_QUICK=1): 50 streams, then the regression guard (50 connections). */
export const QUICK_PHASES = ['streaming_loaded', 'regression_guard'];

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true';
  const only = (env.BENCH_PHASES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return {
    quick,
    seconds: number(env, 'BENCH_SECONDS', quick ? 3 : 8, 0.5),
    warmupSeconds: number(env, 'BENCH_WARMUP_SECONDS', quick ? 1 : 1.5, 0),
    connections: Math.round(number(env, 'BENCH_CONNECTIONS', 50, 1)),
    idleSeconds: number(env, 'BENCH_IDLE_SECONDS', quick ? 1 : 3, 0),
    words: Math.round(number(env, 'BENCH_WORDS', 20, 1)),
    paceMs: Math.round(number(env, 'BENCH_PACE_MS', 2, 0)),
    gatewayNodeArgs: (env.BENCH_GATEWAY_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    anthropicWords: Math.round(number(env, 'BENCH_ANTHROPIC_WORDS', 200, 1)),
    videoTasks: Math.round(number(env, 'BENCH_VIDEO_TASKS', 1000, 1)),
    videoGenerationMs: Math.round(number(env, 'BENCH_VIDEO_GENERATION_MS', 20_000, 0)),
    redisUrl: env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
    json: env.BENCH_JSON === '1' || env.BENCH_JSON === 'true',
    only: only.length || !quick ? only : QUICK_PHASES,
  };
}

export function selected(settings: Settings, id: string): boolean {
  return settings.only.length === 0 || settings.only.includes(id);
}

/** What every phase gets: the processes, the load targets, and where to put its results. */
export interface BenchContext {
  settings: Settings;
  simulator: SimulatorProcess;
  /** The gateway under test; a phase that restarts it (video_tasks) puts the new process here. */
  gateway: GatewayProcess;
  /** The environment the gateway was started with (its database, upstream, admin token), for phases that start more instances. */
  gatewayEnv: NodeJS.ProcessEnv;
  /** Chat requests straight to the simulator. */
  direct: Target;
  /** The same requests through the gateway, with the bench's API key. */
  viaGateway: Target;
  /** The same requests through a bare Node pass-through (bare-proxy.ts): the floor of the one-connection figures. */
  floor: Target;
  /** The bare pass-through's process, whose CPU the regression guard reads. */
  floorPid: number;
  /** Chat requests sent through the gateway so far, warm-ups included: each must leave one usage record. */
  gatewayChatRequests: number;
  /** Video submissions sent through the gateway (any instance): each leaves one usage record too. */
  gatewayVideoTasks: number;
  /** VmRSS of the gateway after start-up, before any request. */
  gatewayIdleRssBytes: number;
  /** Gateway CPU in the idle seconds right after start-up, ms per second. */
  gatewayIdleCpuMsPerS: number;
  report: Report;
}

/** The table rows, the JSON document and the failures of a run. */
export class Report {
  readonly rows: Row[] = [];
  readonly json: Record<string, unknown> = {};
  readonly failures: string[] = [];
  /** CPU other processes took during the measured windows and the embedded starts, summed. */
  readonly noise: NoiseSample = { otherTicks: 0, stealTicks: 0, capacityTicks: 0 };

  addNoise(sample: NoiseSample): void {
    this.noise.otherTicks += sample.otherTicks;
    this.noise.stealTicks += sample.stealTicks;
    this.noise.capacityTicks += sample.capacityTicks;
  }

  section(title: string): void {
    this.rows.push({ section: title });
  }

  /** Metric, gateway, direct, added, target, check. */
  row(metric: string, gateway = '', direct = '', added = '', target = '', check = ''): void {
    this.rows.push({ cells: [`  ${metric}`, gateway, direct, added, target, check] });
  }

  fail(problem: string): void {
    this.failures.push(problem);
  }
}

/** PASS/MISS against a target; a missed target is reported, not a failure of the run. */
export function against(value: number, limit: number, strict = false): string {
  if (!Number.isFinite(value)) return 'n/a';
  return (strict ? value < limit : value <= limit) ? 'PASS' : 'MISS';
}
