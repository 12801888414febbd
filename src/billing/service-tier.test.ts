import { modelSchema } from '../config/gateway-config-schema';
import { billDimensions } from './line-items';
import { PriceTable } from './price-table';
import { serviceTierDimension, withServiceTier } from './service-tier';
import { worstCaseMicrousd } from './spend-estimate';
import type { MeasuredUsage } from './usage-record';

const table = new PriceTable([
  modelSchema.parse({
    id: 'm', owned_by: 'x', family: 'openai', endpoint_types: ['responses'], context_window: 1_000_000, max_output_tokens: 10_000,
    pricing: { input: '1.00', output: '4.00', service_tier_priority: '0.75' }, routes: [{ provider: 'p', upstream_model: 'm' }],
  }),
]);
const route = { modelId: 'm', lane: 'standard', maxInputTokens: 1_000_000, maxOutputTokens: 10_000, contextWindow: 1_000_000 };
const usage: MeasuredUsage = {
  promptTokens: 1_000,
  completionTokens: 500,
  dimensions: [{ name: 'input', quantity: 1_000, unit: 'tokens' }, { name: 'output', quantity: 500, unit: 'tokens' }],
  measurement: { input: 'provider', output: 'provider' },
  providerUsage: { family: 'openai', raw_fields: {} },
};

describe('paid service tiers', () => {
  it('bill every token of the call under the tier, as its own line item in micro-USD', () => {
    const bill = billDimensions(table, 'm', route.lane, withServiceTier(usage, 'priority').dimensions);
    expect(bill.lineItems.at(-1)).toEqual({ dimension: 'service_tier_priority', quantity: 1_500, unit_microusd: 0.75, amount_microusd: 1_125 });
    expect(bill.amountMicroUsd).toBe(1_000n + 2_000n + 1_125n);
  });

  it('add nothing for the default tier or an unknown one', () => {
    expect(withServiceTier(usage, 'default')).toBe(usage);
    expect(withServiceTier(usage, 'auto')).toBe(usage);
    expect(withServiceTier(usage, undefined)).toBe(usage);
  });

  it("are in a hold's worst case on every prompt and output token", () => {
    const estimate = { promptTokens: 1_000, outputCap: 500 };
    const plain = worstCaseMicrousd(table, route, estimate);
    const tiered = worstCaseMicrousd(table, route, { ...estimate, perTokenDimensions: [serviceTierDimension('priority')] });
    expect(tiered - plain).toBeGreaterThanOrEqual(1_125n);
  });
});
