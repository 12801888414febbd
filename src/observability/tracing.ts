import type { IncomingHttpHeaders } from 'node:http';
import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type SpanOptions, type TextMapPropagator, type Tracer } from '@opentelemetry/api';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

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
 * OpenTelemetry traces of one gateway, exported over OTLP/HTTP: off unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * is set, or `GATEWAY_TRACES=true` (the exporter's default address then);
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` keep them off.
 * The standard `OTEL_*` variables (service name, headers, sampler) work as
 * the SDK reads them. While traces are off nothing is started and the
 * request path checks one boolean.
 *
 * Each gateway makes its own (the composition root) and hands it to what
 * traces: the request listener, routing, the usage recorder, the video
 * service. Nothing is registered with OpenTelemetry's globals (tracer
 * provider, propagator, context manager): no third-party instrumentation
 * runs in the gateway, so two gateways in one process trace apart. Spans
 * are handed from the request to its attempts and record write explicitly
 * (the request context, the attempt, the usage ticket), which also spares
 * every promise of the process the cost of AsyncLocalStorage's hooks.
 */
export class Tracing {
  /** Traces off: no spans, nothing to flush. */
  static readonly off = new Tracing(undefined, undefined, false);

  private constructor(
    private readonly provider: NodeTracerProvider | undefined,
    private readonly tracer: Tracer | undefined,
    /** Whether prompt and completion content may be recorded on spans (the operator opted in). */
    readonly recordsContent: boolean,
  ) {}

  /** A tracer provider with a batching OTLP/HTTP exporter when the settings turn traces on; `Tracing.off` otherwise. */
  static start(settings: TracingSettings, serviceVersion: string): Tracing {
    if (!settings.enabled) return Tracing.off;
    // Loaded only when traces are on: the SDK and its exporter take about 17 MB of memory a gateway without traces need not hold.
    const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
    const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': serviceVersion }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(settings.url ? { url: settings.url } : {}))],
    });
    return new Tracing(provider, provider.getTracer(TRACER_NAME, serviceVersion), settings.recordContent);
  }

  /** Whether spans are being made: the hot path's one check. */
  get on(): boolean {
    return this.tracer !== undefined;
  }

  /** A request's server span, continuing the trace of the `traceparent` in its headers; none while traces are off. */
  serverSpan(name: string, options: SpanOptions, headers: IncomingHttpHeaders): Span | undefined {
    if (!this.tracer) return undefined;
    return this.tracer.startSpan(name, { ...options, kind: SpanKind.SERVER }, traceContext().extract(ROOT_CONTEXT, headers, defaultTextMapGetter));
  }

  /** A child of `parent` (a request's span, an attempt's); none while traces are off or without a parent. */
  childSpan(parent: Span | undefined, name: string, options: SpanOptions): Span | undefined {
    if (!this.tracer || !parent) return undefined;
    return this.tracer.startSpan(name, options, trace.setSpan(ROOT_CONTEXT, parent));
  }

  /** A span that starts a trace of its own (work outside any request, such as the video poller's); none while traces are off. */
  rootSpan(name: string, options: SpanOptions): Span | undefined {
    return this.tracer?.startSpan(name, { ...options, root: true });
  }

  /** Sends the spans not exported yet (in tests). */
  async flush(): Promise<void> {
    await this.provider?.forceFlush();
  }

  /** Sends the spans not exported yet and stops the exporter (at shutdown). */
  async close(): Promise<void> {
    await this.provider?.shutdown();
  }
}

/**
 * The W3C trace-context propagator (`traceparent`, `tracestate`): it keeps
 * no state, so one serves every gateway; loaded with the first span.
 */
let w3c: TextMapPropagator | undefined;
function traceContext(): TextMapPropagator {
  if (!w3c) {
    const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
    w3c = new W3CTraceContextPropagator();
  }
  return w3c;
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
  if (span) traceContext().inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
}

/** A span's ids for log lines: nothing without a span. */
export function traceFields(span: Span | undefined): Record<string, string> {
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
