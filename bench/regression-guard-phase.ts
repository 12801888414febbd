import type { BenchContext } from './context';
import { createTarget, runLoad, type Target } from './load';
import { account, chatRequest, of, perRequest, type Phase } from './phases';
import { CpuMeter, readMemory } from './proc-stats';
import { progress } from './progress';
import { median, round } from './stats';
import { fmt } from './table';

/** The gateway's CPU per request may be at most this many times the bare pass-through's, at the same load, in the same run. */
export const CPU_RATIO_LIMIT = 4;
/** Peak RSS of the PostgreSQL-mode gateway, after 50 connections and 50 streams. */
export const PEAK_RSS_LIMIT_MB = 200;
const PAIRS = 5;
/** The first window's warm-up, at least: after 50 streams the non-streaming path is still warming (the first of three windows measured 0.49-0.58 ms after 1-3 s of warm-up, the next two 0.34-0.42). */
const FIRST_WARM_UP_SECONDS = 6;

/**
 * The bench's regression guard (`npm run bench:quick` runs it in CI): it
 * fails the run on a large regression, judged against a measure of the
 * same run, so that a slow machine does not fail it. Non-streaming chat at
 * N connections, each sending to the gateway and to the bare Node
 * pass-through (bare-proxy.ts: one more process and hop, no work) in turn,
 * in PAIRS windows; the gateway's CPU per request must stay within
 * CPU_RATIO_LIMIT times the pass-through's (medians). Its peak RSS so far
 * (after the phases before it, 50 streams among them in the quick run)
 * must stay under PEAK_RSS_LIMIT_MB. A lost usage record fails every run
 * (run.ts counts them at the end).
 */
export const regressionGuard: Phase = {
  id: 'regression_guard',
  async run(ctx) {
    const n = ctx.settings.connections;
    const request = chatRequest(ctx, false);
    const floor = createTarget('bare proxy (loaded)', ctx.floor.origin, ctx.floor.headers, n);
    const ratios: number[] = [];
    const gatewayMs: number[] = [];
    const floorMs: number[] = [];
    try {
      for (let i = 1; i <= PAIRS; i++) {
        const { g, f } = await pairedWindow(ctx, `regression guard ${i}/${PAIRS}`, floor, request, i === 1);
        gatewayMs.push(g);
        floorMs.push(f);
        ratios.push(g / f);
      }
    } finally {
      await floor.pool.destroy();
    }
    const ratio = median(ratios);
    const peakMb = readMemory(ctx.gateway.handle.pid).hwmBytes / 1048576;
    const { report } = ctx;
    report.section(`Regression guard (non-streaming chat, ${n} connections sending to both in turn, ${PAIRS} windows)`);
    report.row('CPU per request: gateway / bare pass-through', `${fmt.ms(median(gatewayMs), 3)} / ${fmt.ms(median(floorMs), 3)}`, '', `${ratio.toFixed(2)}x`, `<= ${CPU_RATIO_LIMIT}x`, ratio <= CPU_RATIO_LIMIT ? 'ok' : 'FAIL');
    report.row('peak RSS so far (VmHWM)', fmt.mb(peakMb * 1048576), '', '', `<= ${PEAK_RSS_LIMIT_MB} MB`, peakMb <= PEAK_RSS_LIMIT_MB ? 'ok' : 'FAIL');
    if (ratio > CPU_RATIO_LIMIT) report.fail(`regression guard: the gateway's CPU per request is ${ratio.toFixed(2)} times the bare pass-through's (limit ${CPU_RATIO_LIMIT}x; pairs ${ratios.map((r) => r.toFixed(2)).join(', ')})`);
    if (peakMb > PEAK_RSS_LIMIT_MB) report.fail(`regression guard: the gateway's peak RSS is ${peakMb.toFixed(0)} MB (limit ${PEAK_RSS_LIMIT_MB} MB)`);
    report.json[this.id] = {
      connections: n, pairs: PAIRS, cpu_ratio: round(ratio, 3), cpu_ratios: ratios.map((r) => round(r, 3)),
      gateway_cpu_ms_per_request: round(median(gatewayMs), 4), bare_proxy_cpu_ms_per_request: round(median(floorMs), 4), peak_rss_mb: round(peakMb, 1),
    };
  },
};

/**
 * One window in which every connection sends to the gateway and to the
 * pass-through in turn (after a warm-up when `warm`), so that both take the
 * same requests at the same rate: a process's CPU per request falls as its
 * rate rises (more work per wake-up), and a pass-through run alone at its
 * own, higher rate measured cheaper than at the gateway's. The CPU per
 * request of each process.
 */
async function pairedWindow(ctx: BenchContext, label: string, floor: Target, request: ReturnType<typeof chatRequest>, warm: boolean): Promise<{ g: number; f: number }> {
  const connections = ctx.settings.connections;
  const { seconds, warmupSeconds } = ctx.settings;
  const targets = [ctx.viaGateway, floor];
  const warmUpMs = Math.max(FIRST_WARM_UP_SECONDS, warmupSeconds) * 1000;
  if (warm) account(ctx, `${label} (warm-up)`, await runLoad({ targets, connections, durationMs: warmUpMs, request }));
  const gatewayCpu = new CpuMeter(ctx.gateway.handle.pid);
  const floorCpu = new CpuMeter(ctx.floorPid);
  const result = await runLoad({ targets, connections, durationMs: seconds * 1000, request });
  const g = perRequest(gatewayCpu.elapsedMs(), of(result, ctx.viaGateway));
  const f = perRequest(floorCpu.elapsedMs(), of(result, floor));
  account(ctx, label, result);
  progress(`${label}: gateway ${g.toFixed(3)} ms, bare pass-through ${f.toFixed(3)} ms CPU per request`);
  return { g, f };
}
