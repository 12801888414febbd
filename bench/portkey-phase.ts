import { onCleanup } from './cleanup';
import { against } from './context';
import { createTarget, type Target, type TargetResult } from './load';
import { chatRequest, errorsCell, errorsCheck, measure, of, perRequest, type Phase } from './phases';
import { CpuMeter, readMemory } from './proc-stats';
import { startPortkeyProcess } from './processes';
import { progress } from './progress';
import { median, round, summarize } from './stats';
import { fmt } from './table';

const REPETITIONS = 3;
/** The gateway's CPU per request may be at most this share of Portkey's. */
const CPU_SHARE_LIMIT = 0.25;

/**
 * The gateway beside a peer, in one run: Portkey's open-source gateway
 * (`@portkey-ai/gateway`, installed by `npm run bench:install`) on the same simulator, with the
 * same requests. Non-streaming at N connections in interleaved pairs (CPU
 * per request from each process's own /proc figures, medians of 3), then
 * one connection alternating gateway, Portkey, direct and the bare
 * pass-through for added latency and streamed time to first byte. Portkey
 * is told the upstream with its `x-portkey-custom-host` header.
 */
export const portkey: Phase = {
  id: 'portkey',
  async run(ctx) {
    const { report, settings } = ctx;
    report.section(`Beside Portkey (@portkey-ai/gateway, same simulator), non-streaming ${settings.connections} connections: median of ${REPETITIONS} interleaved pairs`);
    const peer = await startPortkeyProcess(settings.gatewayNodeArgs);
    const stopPeer = onCleanup(() => peer.handle.stop(5_000));
    progress(`portkey at ${peer.url} (pid ${peer.handle.pid}), ready in ${Math.round(peer.readyMs)} ms`);
    const headers = { authorization: 'Bearer bench', 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${ctx.simulator.url}/v1` };
    const loaded = createTarget('portkey', peer.url, headers, settings.connections);
    const single = createTarget('portkey (1 conn)', peer.url, headers, 1);
    try {
      const n = settings.connections;
      const request = chatRequest(ctx, false);
      const reps: Array<{ ours: number; theirs: number; oursRate: number; theirsRate: number }> = [];
      /** Gateway results, then everything else (Portkey, direct, the pass-through). */
      const ourResults: TargetResult[] = [];
      const otherResults: TargetResult[] = [];
      for (let rep = 1; rep <= REPETITIONS; rep++) {
        progress(`portkey: pair ${rep} of ${REPETITIONS}`);
        const ours = await measure(ctx, `beside portkey ${rep}, gateway`, { targets: [ctx.viaGateway], connections: n, request });
        const theirs = await measure(ctx, `beside portkey ${rep}, portkey`, { targets: [loaded], connections: n, request }, peer);
        const g = of(ours.result, ctx.viaGateway);
        const p = of(theirs.result, loaded);
        ourResults.push(g);
        otherResults.push(p);
        reps.push({ ours: perRequest(ours.gatewayCpuMs, g), theirs: perRequest(theirs.gatewayCpuMs, p), oursRate: g.requests / g.elapsedS, theirsRate: p.requests / p.elapsedS });
      }
      const ours = median(reps.map((r) => r.ours));
      const theirs = median(reps.map((r) => r.theirs));
      const share = ours / theirs;
      const peerRss = readMemory(peer.handle.pid);
      report.row('gateway / Portkey: CPU per request', fmt.ms(ours, 3), fmt.ms(theirs, 3), Number.isFinite(share) ? `${share.toFixed(2)}x` : 'n/a', `<= ${CPU_SHARE_LIMIT}x Portkey's`, against(share, CPU_SHARE_LIMIT));
      report.row('gateway / Portkey: throughput', fmt.rate(median(reps.map((r) => r.oursRate))), fmt.rate(median(reps.map((r) => r.theirsRate))));
      report.row('Portkey: peak RSS (VmHWM) / RSS now', '', `${fmt.mb(peerRss.hwmBytes)} / ${fmt.mb(peerRss.rssBytes)}`);

      progress('portkey: one connection, alternating gateway, portkey, direct and the bare pass-through');
      const oneConnection = async (stream: boolean) => {
        const spec = chatRequest(ctx, stream);
        const targets: Target[] = [ctx.viaGateway, single, ctx.direct, ctx.floor];
        const peerCpu = new CpuMeter(peer.handle.pid);
        const m = await measure(ctx, `beside portkey, 1 conn${stream ? ', streaming' : ''}`, { targets, connections: 1, request: spec });
        const results = targets.map((t) => of(m.result, t));
        ourResults.push(results[0]!);
        otherResults.push(...results.slice(1));
        const pick = (r: TargetResult) => summarize(stream ? r.ttfbMs : r.latencyMs);
        const [g, p, d, f] = results.map(pick);
        const what = stream ? 'streaming, 1 connection: added time to first byte p50 / p99' : 'non-streaming, 1 connection: added latency p50 / p99';
        report.row(`${what} (gateway / Portkey)`, fmt.signedPair(g!.p50 - d!.p50, g!.p99 - d!.p99), fmt.signedPair(p!.p50 - d!.p50, p!.p99 - d!.p99));
        report.row(`the same over the bare pass-through (gateway / Portkey)`, fmt.signedPair(g!.p50 - f!.p50, g!.p99 - f!.p99), fmt.signedPair(p!.p50 - f!.p50, p!.p99 - f!.p99));
        return {
          gateway_added_p50_ms: round(g!.p50 - d!.p50, 3), gateway_added_p99_ms: round(g!.p99 - d!.p99, 3),
          portkey_added_p50_ms: round(p!.p50 - d!.p50, 3), portkey_added_p99_ms: round(p!.p99 - d!.p99, 3),
          floor_added_p50_ms: round(f!.p50 - d!.p50, 3), floor_added_p99_ms: round(f!.p99 - d!.p99, 3),
          portkey_cpu_ms_per_request: round(perRequest(peerCpu.elapsedMs(), results[1]!), 4),
        };
      };
      const sequential = await oneConnection(false);
      const streaming = await oneConnection(true);
      report.row('errors (non-2xx + failed; Portkey, direct and the pass-through on the right)', errorsCell(...ourResults), errorsCell(...otherResults), '', '0', errorsCheck(...ourResults, ...otherResults));
      report.json[this.id] = {
        connections: n,
        repetitions: reps.map((r) => ({ gateway_cpu_ms: round(r.ours, 4), portkey_cpu_ms: round(r.theirs, 4), gateway_rps: round(r.oursRate, 1), portkey_rps: round(r.theirsRate, 1) })),
        gateway_cpu_ms_per_request: round(ours, 4),
        portkey_cpu_ms_per_request: round(theirs, 4),
        cpu_share: round(share, 3),
        portkey_peak_rss_mb: round(peerRss.hwmBytes / 1048576, 1),
        one_connection: { non_streaming: sequential, streaming },
      };
    } finally {
      await Promise.all([loaded.pool.destroy(), single.pool.destroy()]);
      await stopPeer();
    }
  },
};
