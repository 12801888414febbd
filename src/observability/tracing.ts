import type { IncomingHttpHeaders } from 'node:http';
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * OpenTelemetry traces, exported over OTLP/HTTP: off unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * is set, or `GATEWAY_TRACES=true` (the exporter's default address then);
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` keep them off.
 * The standard `OTEL_*` variables (service name, headers, sampler) work as
 * the SDK reads them. While traces are off nothing is started and the
 * request path checks one boolean.
 */
let provider: NodeTracerProvider | undefined;
let activeTracer: Tracer | undefined;
let recordContent = false;

const TRACER_NAME = 'model-gateway';

export interface TracingSettings {
  /** Whether spans are exported. */
  enabled: boolean;
  /** Where: the traces URL (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`); unset: the exporter's default. */
  url: string | undefined;
  serviceName: string;
  /** Whether prompt and completion content go into spans (`GATEWAY_TRACE_CONTENT=true`); never by default. */
  recordContent: boolean;
}

export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings {
  const off = env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none' || env.GATEWAY_TRACES === 'false';
  const on = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) || env.GATEWAY_TRACES === 'true';
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
  return {
    enabled: on && !off,
    url: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (base ? `${base}/v1/traces` : undefined),
    serviceName: env.OTEL_SERVICE_NAME || 'model-gateway',
    recordContent: env.GATEWAY_TRACE_CONTENT === 'true',
  };
}

/**
 * Starts exporting spans (once per process): a tracer provider with a
 * batching OTLP/HTTP exporter and the W3C trace-context propagator, so that
 * a client's `traceparent` is continued and passed on upstream. No context
 * manager is registered: spans are handed from the request to its attempts
 * and record write explicitly (the request context, the attempt, the usage
 * ticket), which spares every promise of the process the cost of
 * AsyncLocalStorage's hooks.
 */
export function startTracing(settings: TracingSettings, serviceVersion: string): void {
  recordContent = settings.recordContent;
  if (!settings.enabled || provider) return;
  // Loaded only when traces are on: the SDK and its exporter take about 17 MB of memory a gateway without traces need not hold.
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': serviceVersion }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(settings.url ? { url: settings.url } : {}))],
  });
  provider.register({ contextManager: null });
  activeTracer = provider.getTracer(TRACER_NAME, serviceVersion);
}

/** Sends the spans not exported yet (at shutdown, and in tests). */
export async function flushTraces(): Promise<void> {
  await provider?.forceFlush();
}

/** Whether spans are being made: the hot path's one check. */
export function tracingOn(): boolean {
  return activeTracer !== undefined;
}

/** Whether prompt and completion content may be recorded on spans (the operator opted in). */
export function tracingRecordsContent(): boolean {
  return activeTracer !== undefined && recordContent;
}

/** A request's server span, continuing the trace of the `traceparent` in its headers; none while traces are off. */
export function startServerSpan(name: string, options: SpanOptions, headers: IncomingHttpHeaders): Span | undefined {
  if (!activeTracer) return undefined;
  return activeTracer.startSpan(name, { ...options, kind: SpanKind.SERVER }, propagation.extract(ROOT_CONTEXT, headers));
}

/** A child of `parent` (a request's span, an attempt's); none while traces are off or without a parent. */
export function startChildSpan(parent: Span | undefined, name: string, options: SpanOptions): Span | undefined {
  if (!activeTracer || !parent) return undefined;
  return activeTracer.startSpan(name, options, trace.setSpan(ROOT_CONTEXT, parent));
}

/** A span that starts a trace of its own (work outside any request, such as the video poller's); none while traces are off. */
export function startRootSpan(name: string, options: SpanOptions): Span | undefined {
  return activeTracer?.startSpan(name, { ...options, root: true });
}

/**
 * Runs `work` as the span's: a failure is recorded on it, and it ends when
 * the work does. Without a span (traces off) this is `work()`.
 */
export function inSpan<T>(span: Span | undefined, work: () => Promise<T>): Promise<T> {
  return span ? endsWith(span, work) : work();
}

async function endsWith<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Error) span.recordException(err);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}

/** Adds the span's trace context (`traceparent`, `tracestate`) to outgoing headers: its trace continues upstream. */
export function injectTraceHeaders(headers: Record<string, string | number | string[] | undefined>, span: Span | undefined): void {
  if (span) propagation.inject(trace.setSpan(ROOT_CONTEXT, span), headers);
}

/** A span's ids for log lines: nothing without a span. */
export function traceFields(span: Span | undefined): Record<string, string> {
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
