import type { MeasuredUsage } from './usage-record';
import { dimensionsFromUsage } from './usage-dimensions';
import type { ProviderUsage } from '../providers/usage';

/** Usage as the upstream reported it, split into billable dimensions; `reasoningEstimated` when the reasoning share was counted locally. */
export function measuredFromProvider(usage: ProviderUsage, reasoningEstimated = false): MeasuredUsage {
  return {
    promptTokens: usage.inputTokens,
    completionTokens: usage.outputTokens,
    dimensions: dimensionsFromUsage(usage),
    measurement: { input: 'provider', output: 'provider', ...(reasoningEstimated ? { reasoning: 'local_estimate' as const } : {}) },
    providerUsage: { family: usage.family, raw_fields: usage.raw },
  };
}

