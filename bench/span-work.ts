import { SpanKind } from '@opentelemetry/api';
import { injectTraceHeaders, Tracing, tracingSettings } from '../src/observability/tracing';

/** Calls between two flushes: the batch processor's queue (2,048 spans) never fills, so no span is dropped unpaid. */
const CALLS_PER_FLUSH = 500;

/**
 * The CPU a non-streamed chat call's spans take in one process, without the
 * call itself: the gateway's own tracing code (observability/tracing.ts)
 * starts the server span with its attributes, the upstream attempt's span
 * with the GenAI attributes and the `traceparent` it sends, the usage
 * record's span, and ends them as a request does; the batch processor
 * serialises and exports them over OTLP/HTTP JSON to `exportTo` (a sink in
 * the same process, whose reading of them is counted too: the figure errs
 * high). `calls` in rounds of 500, each round flushed, after a warm-up.
 *
 * Windows of whole gateways cannot tell 0.02 ms a call from their noise
 * (two instances of one build differ by more); this figure is what the
 * tracing path itself costs a call, free of that noise.
 */
export async function spanWorkPerCallMs(sampler: string, arg: string | undefined, exportTo: string, calls: number): Promise<number> {
  const tracing = Tracing.start(
    tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: exportTo, OTEL_TRACES_SAMPLER: sampler, ...(arg === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: arg }) }),
    'bench',
  );
  const headers = { host: '127.0.0.1', 'content-type': 'application/json', authorization: 'Bearer sk-bench' };
  const call = (n: number) => {
    const server = tracing.serverSpan('POST', headers, { attributes: () => ({ 'http.request.method': 'POST', 'url.path': '/v1/chat/completions' }) });
    const attempt = tracing.childSpan(server, 'chat gpt-4o-mini', {
      kind: SpanKind.CLIENT,
      attributes: () => ({
        'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o-mini',
        'gateway.request_id': `req_${n}`, 'gateway.route.provider': 'openai', 'gateway.attempt': 1,
      }),
    });
    const upstreamHeaders: Record<string, string> = {};
    injectTraceHeaders(upstreamHeaders, attempt);
    if (attempt !== server) attempt?.end();
    const record = tracing.childSpan(server, 'usage_record.write', { attributes: () => ({ 'db.system.name': 'postgresql', 'gateway.request_id': `req_${n}` }) });
    if (record !== server) record?.end();
    if (server?.isRecording()) {
      server.updateName('POST /v1/chat/completions');
      server.setAttributes({ 'http.response.status_code': 200, 'gateway.request_id': `req_${n}`, 'http.route': '/v1/chat/completions' });
      server.end();
    }
  };
  const rounds = async (count: number) => {
    for (let done = 0; done < count; done += CALLS_PER_FLUSH) {
      for (let i = 0; i < CALLS_PER_FLUSH; i++) call(done + i);
      await tracing.flush();
    }
  };
  try {
    await rounds(Math.min(calls, 5_000));
    const before = process.cpuUsage();
    await rounds(calls);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / calls;
  } finally {
    await tracing.close();
  }
}
