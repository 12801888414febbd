import type { ProviderUsage } from '../providers/usage';
import { measuredFromProvider } from './measured-usage';

const anthropicRaw = { input_tokens: 550, output_tokens: 500, cache_creation_input_tokens: 150, cache_read_input_tokens: 300 };
const reported: ProviderUsage = {
  inputTokens: 1000, outputTokens: 500, reasoningTokens: 200, cacheReadTokens: 300,
  cacheWriteTokens: { ttl5m: 100, ttl1h: 50 }, reportsCache: true, family: 'anthropic', raw: anthropicRaw,
};

describe('measuredFromProvider', () => {
  it('takes the totals, the dimensions and the raw usage as the provider reported them', () => {
    expect(measuredFromProvider(reported)).toStrictEqual({
      promptTokens: 1000,
      completionTokens: 500,
      dimensions: [
        { name: 'input', quantity: 550, unit: 'tokens' },
        { name: 'cache_read', quantity: 300, unit: 'tokens' },
        { name: 'cache_write_5m', quantity: 100, unit: 'tokens' },
        { name: 'cache_write_1h', quantity: 50, unit: 'tokens' },
        { name: 'output', quantity: 300, unit: 'tokens' },
        { name: 'reasoning', quantity: 200, unit: 'tokens' },
      ],
      measurement: { input: 'provider', output: 'provider' },
      providerUsage: { family: 'anthropic', raw_fields: anthropicRaw },
    });
  });

  it.each([
    [false, { input: 'provider', output: 'provider' }],
    [true, { input: 'provider', output: 'provider', reasoning: 'local_estimate' }],
  ])('reasoningEstimated %s gives measurement %j', (estimated, measurement) => {
    expect(measuredFromProvider(reported, estimated).measurement).toStrictEqual(measurement);
  });

  it('keeps the raw object itself, not a copy', () => {
    expect(measuredFromProvider(reported).providerUsage.raw_fields).toBe(anthropicRaw);
  });
});
