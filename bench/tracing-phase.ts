import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from './cleanup';
import { against } from './context';
import { createTarget, runLoad, type TargetResult } from './load';
import { account, chatRequest, errorsCell, errorsCheck, measure, of, perRequest, targetJson, type Phase } from './phases';
import { progress } from './progress';
import { median, round } from './stats';
import { fmt } from './table';
import { startInstance, stopInstance } from './video-gateways';

const REPETITIONS = 3;
const TRACED = 'gateway (traces on)';
/** Spans of one non-streamed chat call: the server span, the upstream attempt, `usage_record.write`. */
const SPANS_PER_CALL = 3;

/**
 * What OpenTelemetry traces cost a call: the same non-streaming load as
 * `non_streaming_loaded`, in interleaved pairs, once on the bench's gateway
 * as it runs (no OTEL_* variables: traces off) and once on a second instance
 * on the same database and upstream with traces on at 100 % sampling,
 * exporting over OTLP/HTTP to a sink in this process. Each side's CPU is
 * read from its own process. The bench does not pin the gateway to a CPU
 * (processes.ts starts it with plain `node`), so neither instance is pinned.
 *
 * "Traces off costs nothing" cannot be measured against a build without
 * traces in one run: the off figure is shown next to the same run's
 * `non_streaming_loaded` figure, which is the same code path.
 */
export const tracing: Phase = {
  id: 'tracing',
  async run(ctx) {
    const { settings, report } = ctx;
    const n = settings.connections;
    const sink = await startOtlpSink();
    const closeSink = onCleanup(() => sink.close());
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-traced-'));
    const removeDataDir = onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    const { tracesSampler: sampler, tracesSamplerArg: samplerArg } = settings;
    // The targets are for 100 % sampling; another sampler (BENCH_TRACES_SAMPLER) is measured and shown, not judged.
    const fullSampling = sampler === 'always_on';
    // Same env as the main gateway (database, upstream, admin token, log level), its own spool and file folder.
    const env: NodeJS.ProcessEnv = {
      ...ctx.gatewayEnv, GATEWAY_DATA_DIR: dataDir, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: sampler,
      ...(samplerArg === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: samplerArg }),
    };
    const traced = await startInstance(TRACED, env, settings.gatewayNodeArgs, report);
    const killTraced = onCleanup(() => traced.handle.stop(5_000));
    progress(`${TRACED} at ${traced.url} (pid ${traced.handle.pid}), exporting to the sink at ${sink.url}`);
    const toTraced = createTarget(TRACED, traced.url, ctx.viaGateway.headers, n);
    const chat = chatRequest(ctx, false);
    const reps: Array<{ off: TargetResult; on: TargetResult; offCpu: number; onCpu: number }> = [];
    let tracedCalls = 0;
    let stoppedCleanly = false;
    try {
      // Calls to the traced instance (warm-ups included: account() counts them), each of which made spans.
      const toTracedInstance = async <T>(load: () => Promise<T>): Promise<T> => {
        const before = ctx.gatewayChatRequests;
        const result = await load();
        tracedCalls += ctx.gatewayChatRequests - before;
        return result;
      };
      // A fresh process: JIT, pools and the key cache warm first, as warmUp() did for the main gateway.
      const durationMs = Math.max(2, settings.warmupSeconds) * 1000;
      await toTracedInstance(async () => account(ctx, `${TRACED} warm-up`, await runLoad({ targets: [toTraced], connections: n, durationMs, request: chat })));
      // Interleaved repetitions, medians: one pair of windows differs by more than the cost measured.
      for (let rep = 1; rep <= REPETITIONS; rep++) {
        const off = await measure(ctx, `non-streaming ${n} conn, traces off (${rep}/${REPETITIONS})`, { targets: [ctx.viaGateway], connections: n, request: chat });
        const on = await toTracedInstance(() => measure(ctx, `non-streaming ${n} conn, traces on (${rep}/${REPETITIONS})`, { targets: [toTraced], connections: n, request: chat }, traced));
        if (!traced.handle.running) throw traced.handle.describeFailure('exited during the tracing phase');
        const f = of(off.result, ctx.viaGateway);
        const o = of(on.result, toTraced);
        reps.push({ off: f, on: o, offCpu: perRequest(off.gatewayCpuMs, f), onCpu: perRequest(on.gatewayCpuMs, o) });
      }
    } finally {
      await toTraced.pool.close().catch(() => undefined);
      // SIGTERM: the instance flushes its usage records and its last spans (to the sink, still up), then exits 0.
      stoppedCleanly = await stopInstance(traced, TRACED, report);
      await killTraced();
      await closeSink();
      await removeDataDir();
    }

    const offCpu = median(reps.map((r) => r.offCpu));
    const onCpu = median(reps.map((r) => r.onCpu));
    const added = median(reps.map((r) => r.onCpu - r.offCpu));
    const rate = (r: TargetResult) => r.requests / r.elapsedS;
    const loaded = (report.json.non_streaming_loaded as { gateway?: { cpu_ms_per_request?: number } } | undefined)?.gateway?.cpu_ms_per_request;
    const expectedSpans = tracedCalls * SPANS_PER_CALL;
    if (fullSampling && sink.spans === 0) report.fail(`${TRACED}: no span reached the OTLP sink (${sink.requests} requests, ${sink.bytes} bytes)`);
    if (sink.unexpected) report.fail(`OTLP sink: ${sink.unexpected} requests other than POST /v1/traces`);
    if (fullSampling && sink.spans > 0 && sink.spans < expectedSpans) progress(`tracing: ${expectedSpans - sink.spans} of ${expectedSpans} spans did not reach the sink (dropped by the batch processor?)`);

    const sampling = fullSampling ? '100 % sampling' : `sampler ${sampler}${samplerArg === undefined ? '' : ` ${samplerArg}`}`;
    report.section(`Traces (OpenTelemetry, ${sampling}, OTLP/HTTP JSON to a sink in the bench process), non-streaming, ${n} connections, median of ${REPETITIONS} interleaved pairs`);
    report.row('throughput (traces on / off)', fmt.rate(median(reps.map((r) => rate(r.on)))), fmt.rate(median(reps.map((r) => rate(r.off)))));
    report.row('CPU per request (traces on / off)', fmt.ms(onCpu, 3), fmt.ms(offCpu, 3), fmt.ms(added, 3), fullSampling ? '< 0.05 ms added' : '', fullSampling ? against(added, 0.05, true) : '');
    // The target compares with a build before traces existed, which one run cannot measure: the same run's figure for the same code path stands beside it.
    report.row(
      'traces off: CPU per request, this phase / non_streaming_loaded',
      fmt.ms(offCpu, 3),
      loaded === undefined ? 'not run' : fmt.ms(loaded, 3),
      loaded === undefined ? '' : fmt.ms(offCpu - loaded, 3),
      '< 0.01 ms vs. a pre-traces build',
      'n/a (same build)',
    );
    report.row(
      'spans exported (sink: spans / POSTs / bytes)',
      `${fmt.int(sink.spans)} / ${fmt.int(sink.requests)} / ${fmt.mb(sink.bytes)}`,
      `${fmt.int(tracedCalls)} calls`,
      `${(sink.spans / tracedCalls).toFixed(2)} per call`,
      fullSampling ? `${SPANS_PER_CALL} per call` : '',
      !fullSampling ? '' : sink.spans >= expectedSpans ? 'ok' : sink.spans > 0 ? 'MISS' : 'FAIL',
    );
    report.row('errors (non-2xx + failed)', errorsCell(...reps.map((r) => r.on)), errorsCell(...reps.map((r) => r.off)), '', '0', errorsCheck(...reps.flatMap((r) => [r.on, r.off])));
    report.row(`${TRACED}: exit on SIGTERM`, stoppedCleanly ? 'clean (code 0)' : 'NOT clean', '', '', 'code 0', stoppedCleanly ? 'ok' : 'FAIL');
    report.json[this.id] = {
      connections: n,
      sampler,
      sampler_arg: samplerArg ?? null,
      pinned: false,
      repetitions: reps.map((r) => ({
        traces_on: targetJson(r.on, { cpu_ms_per_request: round(r.onCpu, 4) }),
        traces_off: targetJson(r.off, { cpu_ms_per_request: round(r.offCpu, 4) }),
      })),
      on_cpu_ms_per_request: round(onCpu, 4),
      off_cpu_ms_per_request: round(offCpu, 4),
      added_cpu_ms_per_request: round(added, 4),
      non_streaming_loaded_cpu_ms_per_request: loaded ?? null,
      off_minus_non_streaming_loaded_ms: loaded === undefined ? null : round(offCpu - loaded, 4),
      sink: { requests: sink.requests, bytes: sink.bytes, spans: sink.spans, traced_calls: tracedCalls, spans_per_call: round(sink.spans / tracedCalls, 3) },
      traced_instance_clean_exit: stoppedCleanly,
    };
  },
};

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
