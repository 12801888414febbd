import { Tracing, tracingSettings } from './tracing';
import { samplerSettings, TraceSamplerError } from './trace-sampler';

/** Traces on, exporting nowhere reachable: the tests below end no recorded span, so nothing is ever sent. */
const tracedEnv = (sampler: Record<string, string>) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', ...sampler });
const SAMPLED_PARENT = { traceparent: '00-4bf92f3577b34da6a3ce929e0e4736aa-00f067aa0ba902b7-01' };
const UNSAMPLED_PARENT = { traceparent: '00-4bf92f3577b34da6a3ce929e0e4736aa-00f067aa0ba902b7-00' };

describe('the trace sampler of OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG', () => {
  it('defaults to the specification\'s parentbased_always_on, and reads names in any case', () => {
    expect(samplerSettings({})).toEqual({ name: 'parentbased_always_on', ratio: 1 });
    expect(samplerSettings({ OTEL_TRACES_SAMPLER: ' Always_Off ' })).toEqual({ name: 'always_off', ratio: 1 });
  });

  it('reads the ratio of the ratio samplers, 1 when unset, and ignores the argument of the others', () => {
    expect(samplerSettings({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' })).toEqual({ name: 'parentbased_traceidratio', ratio: 0.1 });
    expect(samplerSettings({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' })).toEqual({ name: 'traceidratio', ratio: 0 });
    expect(samplerSettings({ OTEL_TRACES_SAMPLER: 'traceidratio' })).toEqual({ name: 'traceidratio', ratio: 1 });
    expect(samplerSettings({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_TRACES_SAMPLER_ARG: 'anything' })).toEqual({ name: 'always_on', ratio: 1 });
  });

  it('refuses a sampler it cannot build and a ratio outside 0 to 1, naming the variable', () => {
    expect(() => samplerSettings({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(TraceSamplerError);
    expect(() => samplerSettings({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/OTEL_TRACES_SAMPLER="jaeger_remote".*parentbased_traceidratio/);
    expect(() => samplerSettings({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(/OTEL_TRACES_SAMPLER_ARG="1.5"/);
    expect(() => samplerSettings({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'ten percent' })).toThrow(TraceSamplerError);
  });

  it('is read only while traces are on', () => {
    expect(() => tracingSettings({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).not.toThrow();
    expect(() => tracingSettings(tracedEnv({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }))).toThrow(TraceSamplerError);
  });
});

describe('spans under a sampler', () => {
  it('builds no attribute and starts no child for a request the sampler drops, and still carries its trace', async () => {
    const tracing = Tracing.start(tracingSettings(tracedEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' })), 'test');
    try {
      const built: string[] = [];
      const server = tracing.serverSpan('POST', {}, { attributes: () => (built.push('server'), { a: 1 }) })!;
      expect(server.isRecording()).toBe(false);
      expect(server.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
      const child = tracing.childSpan(server, 'chat gpt', { attributes: () => (built.push('child'), { b: 1 }) });
      expect(child).toBe(server);
      // The caller's unsampled trace is continued, unsampled.
      const continued = tracing.serverSpan('POST', UNSAMPLED_PARENT, { attributes: () => (built.push('continued'), {}) })!;
      expect(continued.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929e0e4736aa');
      expect(continued.isRecording()).toBe(false);
      expect(built).toEqual([]);
    } finally {
      await tracing.close();
    }
  });

  it('records a trace the caller sampled under a parent-based sampler, attributes built once per span', async () => {
    const tracing = Tracing.start(tracingSettings(tracedEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' })), 'test');
    const built: string[] = [];
    const server = tracing.serverSpan('POST', SAMPLED_PARENT, { attributes: () => (built.push('server'), { a: 1 }) })!;
    const child = tracing.childSpan(server, 'chat gpt', { attributes: () => (built.push('child'), { b: 1 }) })!;
    expect(server.isRecording()).toBe(true);
    expect(child).not.toBe(server);
    expect(child.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929e0e4736aa');
    expect(built).toEqual(['server', 'child']);
    // Not ended, so not exported: the provider has nothing to send to the unreachable endpoint.
  });

  it('records nothing under always_off, whatever the caller sampled', () => {
    const tracing = Tracing.start(tracingSettings(tracedEnv({ OTEL_TRACES_SAMPLER: 'always_off' })), 'test');
    expect(tracing.serverSpan('POST', SAMPLED_PARENT, {})!.isRecording()).toBe(false);
    expect(tracing.rootSpan('poll', { attributes: () => { throw new Error('built for a dropped span'); } })!.isRecording()).toBe(false);
  });
});
