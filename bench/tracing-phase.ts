import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from './cleanup';
import { against, type BenchContext } from './context';
import { createTarget, runLoad, type Target, type TargetResult } from './load';
import { account, chatRequest, errorsCell, errorsCheck, measure, of, perRequest, targetJson, type Phase } from './phases';
import type { GatewayProcess } from './processes';
import { progress } from './progress';
import { spanWorkPerCallMs } from './span-work';
import { median, round } from './stats';
import { fmt } from './table';
import { startInstance, stopInstance } from './video-gateways';

const REPETITIONS = 3;
/** Calls of the in-process measure of the spans' own work (span-work.ts). */
const SPAN_WORK_CALLS = 50_000;
/** Spans of one non-streamed chat call: the server span, the upstream attempt, `usage_record.write`. */
const SPANS_PER_CALL = 3;

/** A traced instance: its sampler and the aim for the CPU it adds per call over traces off. */
interface Sampling {
  id: string;
  label: string;
  sampler: string;
  arg?: string;
  /** The share of calls whose spans are recorded and exported. */
  share: number;
  aimMs: number;
}

const SAMPLINGS: Sampling[] = [
  { id: 'always_on', label: '100 % sampling (always_on)', sampler: 'always_on', share: 1, aimMs: 0.1 },
  { id: 'ratio_10', label: '10 % sampling (parentbased_traceidratio 0.1)', sampler: 'parentbased_traceidratio', arg: '0.1', share: 0.1, aimMs: 0.02 },
];

/** The baseline: an instance as fresh as the traced ones, with traces off, so that no row compares a younger process with an older one. */
const OFF: Sampling = { id: 'off', label: 'traces off', sampler: 'none', share: 0, aimMs: 0 };
/** A second traces-off instance, measured like the traced ones: how far two instances of one build differ, the noise of the rows above. */
const OFF_AGAIN: Sampling = { id: 'off_again', label: 'traces off, a second instance', sampler: 'none', share: 0, aimMs: 0 };

interface Traced {
  sampling: Sampling;
  gateway: GatewayProcess;
  target: Target;
  sink: OtlpSink;
  /** Calls sent to it, warm-ups included (account() counts them), each of which started a trace. */
  calls: number;
  stop: () => Promise<unknown>;
  stoppedCleanly: boolean;
}

/**
 * What OpenTelemetry traces cost a call: the same non-streaming load as
 * `non_streaming_loaded`, in interleaved windows (traces off, 100 %, 10 %,
 * repeated; medians), on three more instances on the same database and
 * upstream, started and warmed alike: one with traces off (the baseline),
 * one at 100 % sampling and one at 10 % (`parentbased_traceidratio` 0.1:
 * the bench sends no traceparent, so the ratio decides), the traced ones
 * each exporting over OTLP/HTTP to its own sink in this process. Each side's CPU is read from its own process.
 * The bench does not pin the gateway to a CPU (processes.ts starts it with
 * plain `node`), so no instance is pinned.
 *
 * Traces off is the baseline of the other rows; what it costs over a build
 * without the tracing hook (the listener itself, a few checks of an absent
 * span) cannot be told apart from window-to-window noise in one run, so its
 * figure is shown next to the same run's `non_streaming_loaded` figure.
 * A second traces-off instance, measured in the same rounds, shows how far
 * two instances of one build differ: the noise of the rows.
 * After the windows, each sampling's tracing path is also measured alone in
 * the bench's process (span-work.ts): the spans' own CPU per call, which
 * the windows' noise hides at the 10 % aim.
 */
export const tracing: Phase = {
  id: 'tracing',
  async run(ctx) {
    const { settings, report } = ctx;
    const n = settings.connections;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-traced-'));
    const removeDataDir = onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    const chat = chatRequest(ctx, false);
    const instances: Traced[] = [];
    const reps: Array<{ off: TargetResult; offCpu: number; on: Map<string, { result: TargetResult; cpu: number }> }> = [];
    let baseline: Traced | undefined;
    let control: Traced | undefined;
    const controlCpu: number[] = [];
    try {
      baseline = await startTraced(ctx, OFF, dataDir);
      for (const sampling of SAMPLINGS) instances.push(await startTraced(ctx, sampling, dataDir));
      control = await startTraced(ctx, OFF_AGAIN, dataDir);
      // A fresh process: JIT, pools and the key cache warm first, as warmUp() did for the main gateway.
      const durationMs = Math.max(2, settings.warmupSeconds) * 1000;
      for (const t of [baseline, ...instances, control]) await toTraced(ctx, t, async () => account(ctx, `${t.gateway.handle.name} warm-up`, await runLoad({ targets: [t.target], connections: n, durationMs, request: chat })));
      // Interleaved repetitions, medians: one pair of windows differs by more than the cost measured.
      for (let rep = 1; rep <= REPETITIONS; rep++) {
        const b = baseline;
        const off = await toTraced(ctx, b, () => measure(ctx, `non-streaming ${n} conn, traces off (${rep}/${REPETITIONS})`, { targets: [b.target], connections: n, request: chat }, b.gateway));
        const f = of(off.result, b.target);
        const on = new Map<string, { result: TargetResult; cpu: number }>();
        for (const t of instances) {
          const m = await toTraced(ctx, t, () => measure(ctx, `non-streaming ${n} conn, ${t.sampling.label} (${rep}/${REPETITIONS})`, { targets: [t.target], connections: n, request: chat }, t.gateway));
          if (!t.gateway.handle.running) throw t.gateway.handle.describeFailure('exited during the tracing phase');
          const o = of(m.result, t.target);
          on.set(t.sampling.id, { result: o, cpu: perRequest(m.gatewayCpuMs, o) });
        }
        const c = control;
        const again = await toTraced(ctx, c, () => measure(ctx, `non-streaming ${n} conn, ${c.sampling.label} (${rep}/${REPETITIONS})`, { targets: [c.target], connections: n, request: chat }, c.gateway));
        controlCpu.push(perRequest(again.gatewayCpuMs, of(again.result, c.target)));
        reps.push({ off: f, offCpu: perRequest(off.gatewayCpuMs, f), on });
      }
    } finally {
      for (const t of [...(baseline ? [baseline] : []), ...instances, ...(control ? [control] : [])]) {
        await t.target.pool.close().catch(() => undefined);
        // SIGTERM: the instance flushes its usage records and its last spans (to the sink, still up), then exits 0.
        t.stoppedCleanly = await stopInstance(t.gateway, t.gateway.handle.name, report);
        await t.stop();
        await t.sink.close();
      }
      await removeDataDir();
    }

    // The tracing path's own work a call, in this process, after the windows (no instance runs meanwhile).
    const spanWork = new Map<string, number>();
    for (const sampling of SAMPLINGS) {
      const sink = await startOtlpSink();
      try {
        spanWork.set(sampling.id, await spanWorkPerCallMs(sampling.sampler, sampling.arg, sink.url, SPAN_WORK_CALLS));
      } finally {
        await sink.close();
      }
    }

    const rate = (r: TargetResult) => r.requests / r.elapsedS;
    const offCpu = median(reps.map((r) => r.offCpu));
    const loaded = (report.json.non_streaming_loaded as { gateway?: { cpu_ms_per_request?: number } } | undefined)?.gateway?.cpu_ms_per_request;
    report.section(`Traces (OpenTelemetry, OTLP/HTTP JSON to a sink in the bench process), non-streaming, ${n} connections, median of ${REPETITIONS} interleaved windows each: CPU added per call over traces off`);
    report.row(
      'traces off (the baseline, a fresh instance): CPU per request / non_streaming_loaded',
      fmt.ms(offCpu, 3),
      loaded === undefined ? 'not run' : fmt.ms(loaded, 3),
      loaded === undefined ? '' : fmt.ms(offCpu - loaded, 3),
      '< 0.01 ms vs. a build without the hook',
      'baseline (not separable)',
    );
    report.row('traces off: throughput', fmt.rate(median(reps.map((r) => rate(r.off)))));
    const noise = median(controlCpu.map((cpu, i) => cpu - reps[i].offCpu));
    report.row('traces off, a second instance: CPU per request (the noise between two instances of one build)', fmt.ms(median(controlCpu), 3), fmt.ms(offCpu, 3), fmt.ms(noise, 3));
    const json: Record<string, unknown> = {
      connections: n,
      pinned: false,
      off_cpu_ms_per_request: round(offCpu, 4),
      non_streaming_loaded_cpu_ms_per_request: loaded ?? null,
      off_minus_non_streaming_loaded_ms: loaded === undefined ? null : round(offCpu - loaded, 4),
      off_again_cpu_ms_per_request: round(median(controlCpu), 4),
      off_again_minus_off_ms: round(noise, 4),
    };
    for (const t of instances) {
      const { sampling, sink } = t;
      const on = reps.map((r) => r.on.get(sampling.id)!);
      const onCpu = median(on.map((o) => o.cpu));
      const added = median(reps.map((r) => r.on.get(sampling.id)!.cpu - r.offCpu));
      const expectedSpans = t.calls * SPANS_PER_CALL * sampling.share;
      if (sink.spans === 0) report.fail(`${t.gateway.handle.name}: no span reached the OTLP sink (${sink.requests} requests, ${sink.bytes} bytes)`);
      if (sink.unexpected) report.fail(`OTLP sink of ${t.gateway.handle.name}: ${sink.unexpected} requests other than POST /v1/traces`);
      if (sampling.share === 1 && sink.spans > 0 && sink.spans < expectedSpans) progress(`tracing: ${expectedSpans - sink.spans} of ${expectedSpans} spans did not reach the sink (dropped by the batch processor?)`);
      const perCall = sink.spans / t.calls;
      // Sampling by trace id: within a tenth of the expected share (of spans per call) counts as right.
      const spansOk = sampling.share === 1 ? sink.spans >= expectedSpans : Math.abs(perCall - SPANS_PER_CALL * sampling.share) <= SPANS_PER_CALL * sampling.share * 0.1;
      report.row(`${sampling.label}: CPU per request (on / off)`, fmt.ms(onCpu, 3), fmt.ms(offCpu, 3), fmt.ms(added, 3), `< ${sampling.aimMs} ms added`, against(added, sampling.aimMs, true));
      const ownWork = spanWork.get(sampling.id)!;
      report.row("  the spans' own CPU per call, in process (span-work.ts)", fmt.ms(ownWork, 4), '', '', `< ${sampling.aimMs} ms`, against(ownWork, sampling.aimMs, true));
      report.row('  throughput (on)', fmt.rate(median(on.map((o) => rate(o.result)))));
      report.row(
        '  spans exported (sink: spans / POSTs / bytes)',
        `${fmt.int(sink.spans)} / ${fmt.int(sink.requests)} / ${fmt.mb(sink.bytes)}`,
        `${fmt.int(t.calls)} calls`,
        `${perCall.toFixed(2)} per call`,
        `${(SPANS_PER_CALL * sampling.share).toFixed(1)} per call`,
        spansOk ? 'ok' : sink.spans > 0 ? 'MISS' : 'FAIL',
      );
      report.row('  errors (non-2xx + failed)', errorsCell(...on.map((o) => o.result)), errorsCell(...reps.map((r) => r.off)), '', '0', errorsCheck(...on.map((o) => o.result), ...reps.map((r) => r.off)));
      report.row('  exit on SIGTERM', t.stoppedCleanly ? 'clean (code 0)' : 'NOT clean', '', '', 'code 0', t.stoppedCleanly ? 'ok' : 'FAIL');
      json[sampling.id] = {
        sampler: sampling.sampler,
        sampler_arg: sampling.arg ?? null,
        repetitions: reps.map((r) => ({
          traces_on: targetJson(r.on.get(sampling.id)!.result, { cpu_ms_per_request: round(r.on.get(sampling.id)!.cpu, 4) }),
          traces_off: targetJson(r.off, { cpu_ms_per_request: round(r.offCpu, 4) }),
        })),
        on_cpu_ms_per_request: round(onCpu, 4),
        added_cpu_ms_per_request: round(added, 4),
        span_work_cpu_ms_per_call: round(ownWork, 5),
        sink: { requests: sink.requests, bytes: sink.bytes, spans: sink.spans, traced_calls: t.calls, spans_per_call: round(perCall, 3) },
        clean_exit: t.stoppedCleanly,
      };
    }
    report.json[this.id] = json;
  },
};

/** One more instance, with traces on under the sampling's sampler, exporting to a sink of its own (traces off for OFF and OFF_AGAIN). */
async function startTraced(ctx: BenchContext, sampling: Sampling, dataDir: string): Promise<Traced> {
  const sink = await startOtlpSink();
  onCleanup(() => sink.close());
  const label = `gateway (traces ${sampling.id})`;
  // Same env as the main gateway (database, upstream, admin token, log level), its own spool and file folder.
  const traces: NodeJS.ProcessEnv = sampling.sampler === 'none'
    ? {}
    : { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: sampling.sampler, ...(sampling.arg === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: sampling.arg }) };
  const env: NodeJS.ProcessEnv = { ...ctx.gatewayEnv, GATEWAY_DATA_DIR: path.join(dataDir, sampling.id), ...traces };
  const gateway = await startInstance(label, env, ctx.settings.gatewayNodeArgs, ctx.report);
  const stop = onCleanup(() => gateway.handle.stop(5_000));
  progress(`${label} at ${gateway.url} (pid ${gateway.handle.pid}), exporting to the sink at ${sink.url}`);
  // Named as a variant of the gateway's target, so that its usage records are counted with the others.
  const target = createTarget(`${ctx.viaGateway.name} (traces ${sampling.id})`, gateway.url, ctx.viaGateway.headers, ctx.settings.connections);
  return { sampling, gateway, target, sink, calls: 0, stop, stoppedCleanly: false };
}

/** Runs load against a traced instance, counting its calls. */
async function toTraced<T>(ctx: BenchContext, t: Traced, load: () => Promise<T>): Promise<T> {
  const before = ctx.gatewayChatRequests;
  const result = await load();
  t.calls += ctx.gatewayChatRequests - before;
  return result;
}

interface OtlpSink {
  url: string;
  /** POST /v1/traces received, their body bytes, and the spans in them (occurrences of `"spanId"`). */
  requests: number;
  bytes: number;
  spans: number;
  /** Anything else received. */
  unexpected: number;
  close(): Promise<void>;
}

/** An OTLP/HTTP collector that keeps nothing: reads each body, counts its spans, answers 200 `{}`. */
async function startOtlpSink(): Promise<OtlpSink> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url === '/v1/traces') {
        sink.requests++;
        sink.bytes += body.length;
        sink.spans += occurrences(body, '"spanId"');
      } else sink.unexpected++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const sink: OtlpSink = {
    url: `http://127.0.0.1:${port}`,
    requests: 0,
    bytes: 0,
    spans: 0,
    unexpected: 0,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return sink;
}

function occurrences(body: Buffer, needle: string): number {
  let count = 0;
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, at + needle.length)) count++;
  return count;
}
