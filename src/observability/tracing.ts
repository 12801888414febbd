import { context, propagation, trace, type Span, type Tracer } from '@opentelemetry/api';
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
let recordContent = false;

export const TRACER_NAME = 'model-gateway';

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
 * batching OTLP/HTTP exporter, registered with the AsyncLocalStorage
 * context manager and the W3C trace-context propagator, so that a client's
 * `traceparent` is continued and passed on upstream.
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
  provider.register();
}

/** Sends the spans not exported yet (at shutdown, and in tests). */
export async function flushTraces(): Promise<void> {
  await provider?.forceFlush();
}

/** Whether spans are being made: the hot path's one check. */
export function tracingOn(): boolean {
  return provider !== undefined;
}

/** Whether prompt and completion content may be recorded on spans (the operator opted in). */
export function tracingRecordsContent(): boolean {
  return provider !== undefined && recordContent;
}

export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/** The span of the current request or attempt, when traces are on. */
export function activeSpan(): Span | undefined {
  return provider ? trace.getActiveSpan() : undefined;
}

/** Adds the current trace context (`traceparent`, `tracestate`) to outgoing headers, when traces are on. */
export function injectTraceHeaders(headers: Record<string, string | number | string[] | undefined>): void {
  if (provider) propagation.inject(context.active(), headers);
}

/** The active span's ids for a log line; nothing when no span is active (traces off, or outside a request). */
export function traceFields(): Record<string, string> {
  if (!provider) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
