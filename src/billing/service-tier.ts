import type { MeasuredUsage } from './usage-record';

/**
 * Service tiers an upstream bills apart from its default (OpenAI's and
 * xAI's `service_tier`). The gateway serves one only on a lane whose
 * catalog prices it, as the dimension `service_tier_<tier>`: USD per
 * million tokens of the call (prompt and completion), billed as its own
 * line item on top of the tokens' own prices.
 */
export const PAID_SERVICE_TIERS: ReadonlySet<string> = new Set(['flex', 'priority', 'scale']);

export function serviceTierDimension(tier: string): string {
  return `service_tier_${tier}`;
}

/** The paid tier a request or an answer names, if any (`auto`, `default` and anything else bill as default). */
export function paidServiceTier(value: unknown): string | undefined {
  return typeof value === 'string' && PAID_SERVICE_TIERS.has(value) ? value : undefined;
}

/** The usage with the line item of the paid tier that served it: every token of the call under the tier's dimension. */
export function withServiceTier(usage: MeasuredUsage, servedTier: unknown): MeasuredUsage {
  const tier = paidServiceTier(servedTier);
  if (!tier) return usage;
  const quantity = usage.promptTokens + usage.completionTokens;
  return { ...usage, dimensions: [...usage.dimensions, { name: serviceTierDimension(tier), quantity, unit: 'tokens' }] };
}
