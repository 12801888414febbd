import type { IncomingHttpHeaders } from 'node:http';
import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Span, type TextMapPropagator, type Tracer } from '@opentelemetry/api';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { buildSampler, samplerSettings, type SamplerSettings } from './trace-sampler';

const TRACER_NAME = 'model-gateway';

export interface TracingSettings {
  /** Whether spans are exported. */
  enabled: boolean;
  /** Where: the traces URL (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`); unset: the exporter's default. */
  url: string | undefined;
  serviceName: string;
  /** Whether prompt and completion content go into spans (`GATEWAY_TRACE_CONTENT=true`); never by default. */
  recordContent: boolean;
  /** Which traces are recorded (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`); checked only while traces are on. */
  sampler: SamplerSettings;
}

export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings {
  const off = env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none' || env.GATEWAY_TRACES === 'false';
  const on = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) || env.GATEWAY_TRACES === 'true';
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
  const enabled = on && !off;
  return {
    enabled,
    url: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (base ? `${base}/v1/traces` : undefined),
    serviceName: env.OTEL_SERVICE_NAME || 'model-gateway',
    recordContent: env.GATEWAY_TRACE_CONTENT === 'true',
    // A sampler named wrongly stops a gateway whose traces are on; one whose traces are off does not read it.
    sampler: enabled ? samplerSettings(env) : { name: 'parentbased_always_on', ratio: 1 },
  };
}

/**
 * OpenTelemetry traces of one gateway, exported over OTLP/HTTP: off unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * is set, or `GATEWAY_TRACES=true` (the exporter's default address then);
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` keep them off.
 * The standard `OTEL_*` variables (service name, headers) work as the SDK
 * reads them; the sampler (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`,
 * trace-sampler.ts) is read from the gateway's own environment. A span the
 * sampler drops costs its start only: its attributes are not built and its
 * children not started. While traces are off nothing is started and the
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
      sampler: buildSampler(settings.sampler),
      resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': serviceVersion }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(settings.url ? { url: settings.url } : {}))],
    });
    return new Tracing(provider, provider.getTracer(TRACER_NAME, serviceVersion), settings.recordContent);
  }

  /** Whether spans are being made: the hot path's one check. */
  get on(): boolean {
    return this.tracer !== undefined;
  }

  /**
   * A request's server span, continuing the trace of the `traceparent` in
   * its headers; none while traces are off. When the sampler drops it, the
   * span records nothing but still carries the trace (unsampled) upstream.
   */
  serverSpan(name: string, headers: IncomingHttpHeaders, start: SpanStart): Span | undefined {
    if (!this.tracer) return undefined;
    return recorded(this.tracer.startSpan(name, { kind: SpanKind.SERVER }, traceContext().extract(ROOT_CONTEXT, headers, defaultTextMapGetter)), start);
  }

  /**
   * A child of `parent` (a request's span, an attempt's); none while traces
   * are off or without a parent. A parent the sampler dropped is handed back
   * as it is: every standard sampler drops its children too (the parent-based
   * ones follow the parent, the ratio ones decide on the same trace id), so
   * no span is started and no attribute built, and the parent's context,
   * flagged unsampled, is what goes upstream.
   */
  childSpan(parent: Span | undefined, name: string, start: SpanStart): Span | undefined {
    if (!this.tracer || !parent) return undefined;
    if (!isSampled(parent)) return parent;
    return recorded(this.tracer.startSpan(name, { kind: start.kind }, trace.setSpan(ROOT_CONTEXT, parent)), start);
  }

  /** A span that starts a trace of its own (work outside any request, such as the video poller's); none while traces are off. */
  rootSpan(name: string, start: SpanStart): Span | undefined {
    return this.tracer && recorded(this.tracer.startSpan(name, { kind: start.kind, root: true }), start);
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
 * How a span starts: its kind, and its attributes, built only when the
 * sampler keeps the span (the standard samplers decide without them).
 */
export interface SpanStart {
  kind?: SpanKind;
  attributes?: () => Attributes;
}

function recorded(span: Span, { attributes }: SpanStart): Span {
  if (attributes && span.isRecording()) span.setAttributes(attributes());
  return span;
}

/** Whether the sampler kept the span's trace (an ended span is still sampled; it just records no more). */
export function isSampled(span: Span): boolean {
  return (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
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
