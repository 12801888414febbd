import { against, type BenchContext } from './context';
import { runLoad, type LoadResult, type LoadSpec, type RequestSpec, type Target, type TargetResult } from './load';
import { CpuMeter, NoiseMeter, pidsNamed, readMemory } from './proc-stats';
import type { GatewayProcess } from './processes';
import { round, summarize, type Summary } from './stats';
import { fmt } from './table';

/**
 * The measured phases against one running gateway and its simulator. A phase
 * runs its load, adds rows to the table and a section to the JSON, and
 * reports (not throws) what went wrong; add a new one to PHASES.
 */
export interface Phase {
  id: string;
  run(ctx: BenchContext): Promise<void>;
}

export const MODEL = 'gpt-4.1-mini';
/** The row of the bare pass-through (bare-proxy.ts): what one more process and hop cost on this machine. */
const FLOOR_LABEL = 'floor: a bare Node pass-through';
const CHAT_PATH = '/v1/chat/completions';
/** Aim for what the gateway adds at one connection, at the 99th percentile (latency, or time to first byte). */
const ADDED_P99_LIMIT_MS = 0.5;
/** Aim for the gateway's resident memory while it relays the loaded phase's streams. */
const STREAMING_RSS_LIMIT_MB = 150;
/** Aim for a stream's time to first byte at one connection, over the bare pass-through's (p50). */
const OVER_FLOOR_TTFB_LIMIT_MS = 0.5;

/** A short prompt and a short answer; streams pace their events so that the first one leaves at once. */
export function chatRequest(ctx: BenchContext, stream: boolean): RequestSpec {
  const { words, paceMs } = ctx.settings;
  const directive = stream ? `[sim words=${words} pace=${paceMs}]` : `[sim words=${words}]`;
  const body: Record<string, unknown> = {
    model: MODEL,
    messages: [{ role: 'user', content: `Say hello to the benchmark. ${directive}` }],
  };
  if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
  return {
    method: 'POST',
    path: CHAT_PATH,
    body: JSON.stringify(body),
    stream,
    validate: stream ? validateChatStream : validateChatCompletion,
  };
}

function validateChatCompletion(text: string): string | undefined {
  if (!text.includes('"chat.completion"') || !text.includes('"choices"') || !text.includes('"usage"')) return `not a chat completion: ${text.slice(0, 200)}`;
  return undefined;
}

export function validateChatStream(text: string): string | undefined {
  if (!text.startsWith('data: ')) return `not an event stream: ${text.slice(0, 200)}`;
  if (!text.endsWith('data: [DONE]\n\n')) return `stream did not end with [DONE]: ...${text.slice(-200)}`;
  if (!text.includes('"usage"')) return 'stream has no usage chunk';
  return undefined;
}

export interface Measured {
  result: LoadResult;
  /** CPU milliseconds used by the gateway and the simulator during the measured window. */
  gatewayCpuMs: number;
  simulatorCpuMs: number;
  /** CPU milliseconds used by the bare pass-through in the same window (its requests are the `floor` target's). */
  floorCpuMs: number;
}

/**
 * Warm-up, then the measured window with CPU meters on the gateway and the
 * simulator. The gateway metered is `ctx.gateway` unless the phase loads
 * another instance of its own (`gateway`); both count as under test, not noise.
 */
export async function measure(ctx: BenchContext, label: string, spec: Omit<LoadSpec, 'durationMs'>, gateway: GatewayProcess = ctx.gateway): Promise<Measured> {
  const { seconds, warmupSeconds } = ctx.settings;
  if (warmupSeconds > 0) account(ctx, `${label} (warm-up)`, await runLoad({ ...spec, durationMs: warmupSeconds * 1000 }));
  const gatewayCpu = new CpuMeter(gateway.handle.pid);
  const simulatorCpu = new CpuMeter(ctx.simulator.handle.pid);
  const floorCpu = new CpuMeter(ctx.floorPid);
  const gatewayPids = [...new Set([ctx.gateway.handle.pid, gateway.handle.pid])];
  const noise = new NoiseMeter(() => [...gatewayPids, ctx.simulator.handle.pid, process.pid, ...pidsNamed('postgres')]);
  const result = await runLoad({ ...spec, durationMs: seconds * 1000 });
  const measured = { result, gatewayCpuMs: gatewayCpu.elapsedMs(), simulatorCpuMs: simulatorCpu.elapsedMs(), floorCpuMs: floorCpu.elapsedMs() };
  ctx.report.addNoise(noise.stop());
  account(ctx, label, result);
  return measured;
}

/** Counts gateway requests for the usage-record check; any error fails the run. */
export function account(ctx: BenchContext, label: string, result: LoadResult): void {
  for (const r of result.byTarget.values()) {
    // The gateway's targets: `gateway`, and variants of it named `gateway (...)` (another key, say).
    if (r.target === ctx.viaGateway.name || r.target.startsWith(`${ctx.viaGateway.name} (`)) ctx.gatewayChatRequests += r.requests;
    if (r.non2xx || r.failures) {
      ctx.report.fail(`${label}, ${r.target}: ${r.non2xx} non-2xx, ${r.failures} failed of ${r.requests}; ${r.errorSamples.join(' | ')}`);
    }
  }
}

export function of(result: LoadResult, target: Target): TargetResult {
  return result.byTarget.get(target.name)!;
}

/** Errors of one target, or of several summed (the direct side and the floor share the simulator's column). */
export function errorsCell(...results: Array<TargetResult | undefined>): string {
  const present = results.filter((r): r is TargetResult => r !== undefined);
  const statuses = new Map<string, number>();
  for (const r of present) for (const [s, n] of Object.entries(r.statuses)) statuses.set(s, (statuses.get(s) ?? 0) + n);
  const count = present.reduce((sum, r) => sum + r.non2xx + r.failures, 0);
  const listed = [...statuses].map(([s, n]) => `${n}x${s}`).join(' ');
  return `${count}${listed ? ` (${listed})` : ''}`;
}

export function errorsCheck(...results: TargetResult[]): string {
  return results.some((r) => r.non2xx || r.failures) ? 'FAIL' : 'ok';
}

export function targetJson(r: TargetResult, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const latency = summarize(r.latencyMs);
  return {
    requests: r.requests,
    non_2xx: r.non2xx,
    failures: r.failures,
    requests_per_s: round(r.requests / r.elapsedS, 1),
    latency_ms: summaryJson(latency),
    ...(r.ttfbMs.length ? { ttfb_ms: summaryJson(summarize(r.ttfbMs)) } : {}),
    ...extra,
  };
}

export function summaryJson(s: Summary): Record<string, number> {
  return { count: s.count, mean: round(s.mean, 3), p50: round(s.p50, 3), p90: round(s.p90, 3), p99: round(s.p99, 3), max: round(s.max, 3) };
}

export const perRequest = (cpuMs: number, r: TargetResult) => (r.requests ? cpuMs / r.requests : Number.NaN);

/** Non-streaming chat at N connections: throughput, latency, gateway CPU per request. */
const nonStreamingLoaded: Phase = {
  id: 'non_streaming_loaded',
  async run(ctx) {
    const n = ctx.settings.connections;
    const request = chatRequest(ctx, false);
    const direct = await measure(ctx, `non-streaming ${n} conn, direct`, { targets: [ctx.direct], connections: n, request });
    const gateway = await measure(ctx, `non-streaming ${n} conn, gateway`, { targets: [ctx.viaGateway], connections: n, request });
    const d = of(direct.result, ctx.direct);
    const g = of(gateway.result, ctx.viaGateway);
    const dl = summarize(d.latencyMs);
    const gl = summarize(g.latencyMs);
    const gatewayCpu = perRequest(gateway.gatewayCpuMs, g);
    const simulatorCpu = perRequest(direct.simulatorCpuMs, d);
    const { report } = ctx;
    report.section(`Non-streaming chat, ${n} connections`);
    report.row('throughput', fmt.rate(g.requests / g.elapsedS), fmt.rate(d.requests / d.elapsedS));
    report.row('latency p50 / p99', fmt.pair(gl.p50, gl.p99), fmt.pair(dl.p50, dl.p99), fmt.signedPair(gl.p50 - dl.p50, gl.p99 - dl.p99));
    report.row('CPU per request (direct: simulator)', fmt.ms(gatewayCpu, 3), fmt.ms(simulatorCpu, 3), '', '<= 0.4 ms', against(gatewayCpu, 0.4));
    report.row('errors (non-2xx + failed)', errorsCell(g), errorsCell(d), '', '0', errorsCheck(g, d));
    report.json[this.id] = {
      connections: n,
      seconds: ctx.settings.seconds,
      gateway: targetJson(g, { cpu_ms_per_request: round(gatewayCpu, 4), cpu_ms: round(gateway.gatewayCpuMs, 1), simulator_cpu_ms_per_request: round(perRequest(gateway.simulatorCpuMs, g), 4) }),
      direct: targetJson(d, { simulator_cpu_ms_per_request: round(simulatorCpu, 4) }),
    };
  },
};

/** Sequential non-streaming chat on one connection, alternating gateway and direct: added latency. */
const nonStreamingSequential: Phase = {
  id: 'non_streaming_sequential',
  async run(ctx) {
    const request = chatRequest(ctx, false);
    const m = await measure(ctx, 'non-streaming 1 conn', { targets: [ctx.viaGateway, ctx.direct, ctx.floor], connections: 1, request });
    const g = of(m.result, ctx.viaGateway);
    const d = of(m.result, ctx.direct);
    const f = of(m.result, ctx.floor);
    const gl = summarize(g.latencyMs);
    const dl = summarize(d.latencyMs);
    const fl = summarize(f.latencyMs);
    const gatewayCpu = perRequest(m.gatewayCpuMs, g);
    const floorCpu = perRequest(m.floorCpuMs, f);
    const { report } = ctx;
    report.section('Non-streaming chat, 1 connection (sequential, alternating gateway/direct)');
    report.row('requests', fmt.int(g.requests), fmt.int(d.requests));
    report.row('latency p50 / p99', fmt.pair(gl.p50, gl.p99), fmt.pair(dl.p50, dl.p99), fmt.signedPair(gl.p50 - dl.p50, gl.p99 - dl.p99));
    report.row('added latency p50 / p99', '', '', fmt.signedPair(gl.p50 - dl.p50, gl.p99 - dl.p99), `p99 <= ${ADDED_P99_LIMIT_MS} ms`, against(gl.p99 - dl.p99, ADDED_P99_LIMIT_MS));
    report.row(FLOOR_LABEL, fmt.pair(fl.p50, fl.p99), '', fmt.signedPair(fl.p50 - dl.p50, fl.p99 - dl.p99));
    report.row('gateway CPU per request', fmt.ms(gatewayCpu, 3));
    // What one process costs per call at one connection (each step its own wake-up), beside the gateway's.
    report.row('bare pass-through CPU per request', fmt.ms(floorCpu, 3));
    report.row('errors (non-2xx + failed)', errorsCell(g), errorsCell(d, f), '', '0', errorsCheck(g, d, f));
    report.json[this.id] = {
      connections: 1,
      seconds: ctx.settings.seconds,
      added_p50_ms: round(gl.p50 - dl.p50, 3),
      added_p99_ms: round(gl.p99 - dl.p99, 3),
      floor_added_p50_ms: round(fl.p50 - dl.p50, 3),
      gateway: targetJson(g, { cpu_ms_per_request: round(gatewayCpu, 4) }),
      direct: targetJson(d),
      bare_proxy: targetJson(f, { cpu_ms_per_request: round(floorCpu, 4) }),
    };
  },
};

/** One side of a streamed comparison: where the streams go and what is asked. */
export interface StreamSide {
  target: Target;
  request: RequestSpec;
}

export interface StreamComparison {
  g: TargetResult;
  d: TargetResult;
  /** The bare pass-through, when the phase measured the floor (one connection only). */
  f?: TargetResult;
  /** Gateway CPU during the gateway's measured window(s). */
  gatewayCpuMs: number;
}

/**
 * The same streamed answer through the gateway and straight to the simulator
 * at `n` concurrent streams. One stream: gateway and direct alternate on one
 * connection, so that both see the same machine at the same moment. More: one
 * measured window each, direct first.
 */
export async function compareStreams(ctx: BenchContext, label: string, n: number, gateway: StreamSide, direct: StreamSide, floor?: StreamSide): Promise<StreamComparison> {
  if (n === 1) {
    const sides = floor ? [gateway, direct, floor] : [gateway, direct];
    const request = (t: Target) => sides.find((s) => s.target === t)!.request;
    const m = await measure(ctx, `${label} 1 conn`, { targets: sides.map((s) => s.target), connections: 1, request });
    return { g: of(m.result, gateway.target), d: of(m.result, direct.target), f: floor && of(m.result, floor.target), gatewayCpuMs: m.gatewayCpuMs };
  }
  const d = await measure(ctx, `${label} ${n} conn, direct`, { targets: [direct.target], connections: n, request: direct.request });
  const g = await measure(ctx, `${label} ${n} conn, gateway`, { targets: [gateway.target], connections: n, request: gateway.request });
  return { g: of(g.result, gateway.target), d: of(d.result, direct.target), gatewayCpuMs: g.gatewayCpuMs };
}

/** Streams (or throughput), TTFB and whole-stream rows of a comparison; returns the added TTFB p50. */
export function streamRows(ctx: BenchContext, { g, d, f }: StreamComparison, n: number, ttfbTarget?: { limitMs: number }): number {
  const gt = summarize(g.ttfbMs);
  const dt = summarize(d.ttfbMs);
  const gl = summarize(g.latencyMs);
  const dl = summarize(d.latencyMs);
  const addedP50 = gt.p50 - dt.p50;
  const { report } = ctx;
  if (n > 1) report.row('throughput', fmt.rate(g.requests / g.elapsedS), fmt.rate(d.requests / d.elapsedS));
  else report.row('streams', fmt.int(g.requests), fmt.int(d.requests));
  const target = ttfbTarget ? `added p50 <= ${ttfbTarget.limitMs} ms` : '';
  report.row('TTFB p50 / p99', fmt.pair(gt.p50, gt.p99), fmt.pair(dt.p50, dt.p99), fmt.signedPair(addedP50, gt.p99 - dt.p99), target, ttfbTarget ? against(addedP50, ttfbTarget.limitMs) : '');
  if (f) {
    const ft = summarize(f.ttfbMs);
    report.row(`${FLOOR_LABEL}, TTFB`, fmt.pair(ft.p50, ft.p99), '', fmt.signedPair(ft.p50 - dt.p50, ft.p99 - dt.p99));
    report.row('gateway over the pass-through, TTFB p50 / p99', '', '', fmt.signedPair(gt.p50 - ft.p50, gt.p99 - ft.p99), `p50 <= ${OVER_FLOOR_TTFB_LIMIT_MS} ms`, against(gt.p50 - ft.p50, OVER_FLOOR_TTFB_LIMIT_MS));
    report.row('added TTFB p99', '', '', fmt.signed(gt.p99 - dt.p99), `<= ${ADDED_P99_LIMIT_MS} ms`, against(gt.p99 - dt.p99, ADDED_P99_LIMIT_MS));
  }
  report.row('whole stream p50 / p99', fmt.pair(gl.p50, gl.p99), fmt.pair(dl.p50, dl.p99), fmt.signedPair(gl.p50 - dl.p50, gl.p99 - dl.p99));
  return addedP50;
}

/** The JSON of a stream comparison, common to the streaming phases. */
export function streamJson(ctx: BenchContext, { g, d, f }: StreamComparison, n: number, gatewayCpu: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const gt = summarize(g.ttfbMs);
  const dt = summarize(d.ttfbMs);
  return {
    connections: n,
    seconds: ctx.settings.seconds,
    added_ttfb_p50_ms: round(gt.p50 - dt.p50, 3),
    added_ttfb_p99_ms: round(gt.p99 - dt.p99, 3),
    ...(f ? { floor_added_ttfb_p50_ms: round(summarize(f.ttfbMs).p50 - dt.p50, 3) } : {}),
    ...extra,
    gateway: targetJson(g, { cpu_ms_per_request: round(gatewayCpu, 4) }),
    direct: targetJson(d),
    ...(f ? { bare_proxy: targetJson(f) } : {}),
  };
}

/** Streamed chat: time to the first body byte, gateway minus direct at the same concurrency. */
function streaming(connections: number | 'loaded'): Phase {
  return {
    id: connections === 1 ? 'streaming_1' : 'streaming_loaded',
    async run(ctx) {
      const n = connections === 'loaded' ? ctx.settings.connections : connections;
      const request = chatRequest(ctx, true);
      // The gateway's resident memory while it relays n streams at once, sampled every 250 ms.
      let streamingRss = 0;
      const sampler = setInterval(() => (streamingRss = Math.max(streamingRss, readMemory(ctx.gateway.handle.pid).rssBytes)), 250);
      const c = await compareStreams(ctx, 'streaming', n, { target: ctx.viaGateway, request }, { target: ctx.direct, request }, n === 1 ? { target: ctx.floor, request } : undefined).finally(() => clearInterval(sampler));
      const gatewayCpu = perRequest(c.gatewayCpuMs, c.g);
      const { report } = ctx;
      report.section(`Streaming chat (include_usage, ${ctx.settings.paceMs} ms between events), ${n} ${n === 1 ? 'connection (alternating)' : 'concurrent streams'}`);
      streamRows(ctx, c, n, n === 1 ? { limitMs: 1 } : undefined);
      report.row('gateway CPU per stream', fmt.ms(gatewayCpu, 3));
      if (n > 1) report.row(`gateway RSS with ${n} streams at once (highest sampled)`, fmt.mb(streamingRss), '', '', `<= ${STREAMING_RSS_LIMIT_MB} MB`, against(streamingRss / 1048576, STREAMING_RSS_LIMIT_MB));
      report.row('errors (non-2xx + failed)', errorsCell(c.g), errorsCell(c.d, c.f), '', '0', errorsCheck(c.g, c.d, ...(c.f ? [c.f] : [])));
      report.json[this.id] = streamJson(ctx, c, n, gatewayCpu, { pace_ms: ctx.settings.paceMs, ...(n > 1 ? { rss_mb: round(streamingRss / 1048576, 1) } : {}) });
    },
  };
}

/** Peak memory of the gateway after the load phases (VmHWM), next to its idle RSS after start-up. */
export const memory: Phase = {
  id: 'memory',
  async run(ctx) {
    const now = readMemory(ctx.gateway.handle.pid);
    const { report } = ctx;
    report.section('Gateway memory (PostgreSQL)');
    report.row('RSS idle after start-up', fmt.mb(ctx.gatewayIdleRssBytes));
    report.row(`CPU in the ${ctx.settings.idleSeconds} s after ready`, Number.isFinite(ctx.gatewayIdleCpuMsPerS) ? `${ctx.gatewayIdleCpuMsPerS.toFixed(1)} ms/s` : 'n/a');
    report.row('peak RSS under load (VmHWM)', fmt.mb(now.hwmBytes), '', '', '< 200 MB', against(now.hwmBytes / 1024 / 1024, 200, true));
    report.row('RSS after the load phases', fmt.mb(now.rssBytes));
    report.json[this.id] = {
      idle_rss_mb: round(ctx.gatewayIdleRssBytes / 1048576, 1),
      idle_cpu_ms_per_s: round(ctx.gatewayIdleCpuMsPerS, 2),
      peak_rss_mb: round(now.hwmBytes / 1048576, 1),
      rss_after_load_mb: round(now.rssBytes / 1048576, 1),
    };
  },
};

/** The OpenAI-protocol chat phases, in order; the full list (with memory last among those on the first gateway) is in phase-list.ts. */
export const CHAT_PHASES: Phase[] = [nonStreamingLoaded, nonStreamingSequential, streaming(1), streaming('loaded')];

/** Before the first phase: JIT, connection pools and the key cache warm on both paths. */
export async function warmUp(ctx: BenchContext): Promise<void> {
  const durationMs = Math.max(2, ctx.settings.warmupSeconds) * 1000;
  const n = ctx.settings.connections;
  for (const stream of [false, true]) {
    const request = chatRequest(ctx, stream);
    account(ctx, `warm-up (${stream ? 'streaming' : 'non-streaming'})`, await runLoad({ targets: [ctx.viaGateway, ctx.direct], connections: n, durationMs, request }));
  }
}
