import type { Sampler } from '@opentelemetry/sdk-trace-base';

/** The standard samplers of `OTEL_TRACES_SAMPLER` the gateway builds. */
export const SAMPLER_NAMES = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLER_NAMES)[number];

export interface SamplerSettings {
  name: SamplerName;
  /** The share of traces a `*traceidratio` sampler records, 0 to 1 (`OTEL_TRACES_SAMPLER_ARG`, 1 when unset). */
  ratio: number;
}

/** The specification's default: follow the caller's decision, record every trace the gateway starts. */
const DEFAULT_SAMPLER: SamplerName = 'parentbased_always_on';

export class TraceSamplerError extends Error {}

/**
 * The sampler of `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, read
 * from the gateway's own environment (not `process.env`, which the SDK
 * would read: two gateways in one process sample apart). A name or ratio
 * the gateway cannot honour is refused, rather than silently tracing
 * everything as the SDK would.
 */
export function samplerSettings(env: NodeJS.ProcessEnv): SamplerSettings {
  const raw = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || DEFAULT_SAMPLER;
  if (!(SAMPLER_NAMES as readonly string[]).includes(raw)) {
    throw new TraceSamplerError(`OTEL_TRACES_SAMPLER="${env.OTEL_TRACES_SAMPLER}" is not a sampler the gateway knows: use one of ${SAMPLER_NAMES.join(', ')}`);
  }
  const name = raw as SamplerName;
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!name.endsWith('traceidratio') || !arg) return { name, ratio: 1 };
  const ratio = Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new TraceSamplerError(`OTEL_TRACES_SAMPLER_ARG="${env.OTEL_TRACES_SAMPLER_ARG}" is not a ratio between 0 and 1 (the share of traces ${name} records)`);
  }
  return { name, ratio };
}

/** The SDK's sampler for the settings (the SDK is loaded only while traces are on). */
export function buildSampler({ name, ratio }: SamplerSettings): Sampler {
  const { AlwaysOnSampler, AlwaysOffSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  switch (name) {
    case 'always_on': return new AlwaysOnSampler();
    case 'always_off': return new AlwaysOffSampler();
    case 'traceidratio': return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on': return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}
