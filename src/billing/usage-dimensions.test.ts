import type { ProviderUsage } from '../providers/usage';
import { dimensionsFromUsage } from './usage-dimensions';

const usage = (extra: Partial<ProviderUsage> = {}): ProviderUsage => ({
  inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0,
  cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: false, family: 'openai', raw: {}, ...extra,
});

const quantities = (u: ProviderUsage) => Object.fromEntries(dimensionsFromUsage(u).map((d) => [d.name, d.quantity]));
const sum = (u: ProviderUsage) => dimensionsFromUsage(u).reduce((total, d) => total + d.quantity, 0);

describe('dimensionsFromUsage', () => {
  it.each<[string, Partial<ProviderUsage>, Record<string, number>]>([
    ['no cache reported: input and output only', { inputTokens: 7, outputTokens: 75 }, { input: 7, output: 75 }],
    ['cache reported with zero reads: a real zero cache_read', { inputTokens: 7, outputTokens: 75, reportsCache: true }, { input: 7, cache_read: 0, output: 75 }],
    ['cache reads are taken out of input', { inputTokens: 1000, outputTokens: 10, cacheReadTokens: 600, reportsCache: true }, { input: 400, cache_read: 600, output: 10 }],
    ['reads show even when the flag is off', { inputTokens: 100, outputTokens: 1, cacheReadTokens: 30 }, { input: 70, cache_read: 30, output: 1 }],
    ['5-minute writes only', { inputTokens: 500, outputTokens: 1, cacheWriteTokens: { ttl5m: 200, ttl1h: 0 }, reportsCache: true }, { input: 300, cache_read: 0, cache_write_5m: 200, output: 1 }],
    ['1-hour writes only', { inputTokens: 500, outputTokens: 1, cacheWriteTokens: { ttl5m: 0, ttl1h: 120 }, reportsCache: true }, { input: 380, cache_read: 0, cache_write_1h: 120, output: 1 }],
    ['reasoning is taken out of output', { inputTokens: 12, outputTokens: 350, reasoningTokens: 310 }, { input: 12, output: 40, reasoning: 310 }],
    ['all output is reasoning', { inputTokens: 12, outputTokens: 310, reasoningTokens: 310 }, { input: 12, output: 0, reasoning: 310 }],
    ['nothing at all', {}, { input: 0, output: 0 }],
    ['DeepSeek: hits and misses make up the prompt, no plain input left', { inputTokens: 1000, outputTokens: 20, cacheReadTokens: 640, cacheMissTokens: 360, reportsCache: true }, { input: 0, cache_read: 640, cache_miss: 360, output: 20 }],
    ['misses are taken out of input, the rest stays input', { inputTokens: 1000, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: { ttl5m: 200, ttl1h: 50 }, cacheMissTokens: 300, reportsCache: true }, { input: 350, cache_read: 100, cache_write_5m: 200, cache_write_1h: 50, cache_miss: 300, output: 5 }],
    ['a reported zero of misses is a real zero', { inputTokens: 80, outputTokens: 1, cacheReadTokens: 80, cacheMissTokens: 0, reportsCache: true }, { input: 0, cache_read: 80, cache_miss: 0, output: 1 }],
    ['misses beyond what reads and writes left are capped', { inputTokens: 100, outputTokens: 1, cacheReadTokens: 60, cacheWriteTokens: { ttl5m: 30, ttl1h: 0 }, cacheMissTokens: 50, reportsCache: true }, { input: 0, cache_read: 60, cache_write_5m: 30, cache_miss: 10, output: 1 }],
    ['reasoning beyond the completion is capped at it', { inputTokens: 12, outputTokens: 100, reasoningTokens: 180 }, { input: 12, output: 0, reasoning: 100 }],
    ['reasoning with no completion at all bills nothing', { inputTokens: 12, outputTokens: 0, reasoningTokens: 64 }, { input: 12, output: 0, reasoning: 0 }],
  ])('%s', (_, extra, expected) => {
    expect(quantities(usage(extra))).toEqual(expected);
  });

  it('lists the dimensions in a fixed order, all in tokens', () => {
    const dims = dimensionsFromUsage(usage({ inputTokens: 10, outputTokens: 10, reasoningTokens: 1, cacheReadTokens: 1, cacheWriteTokens: { ttl5m: 1, ttl1h: 1 }, cacheMissTokens: 1 }));
    expect(dims.map((d) => d.name)).toEqual(['input', 'cache_read', 'cache_write_5m', 'cache_write_1h', 'cache_miss', 'output', 'reasoning']);
    expect(new Set(dims.map((d) => d.unit))).toEqual(new Set(['tokens']));
  });

  it.each<[Partial<ProviderUsage>]>([
    [{ inputTokens: 7, outputTokens: 75 }],
    [{ inputTokens: 1000, outputTokens: 500, reasoningTokens: 200, cacheReadTokens: 300, cacheWriteTokens: { ttl5m: 100, ttl1h: 50 }, reportsCache: true }],
    [{ inputTokens: 4096, outputTokens: 1, cacheReadTokens: 4096, reportsCache: true }],
    [{ inputTokens: 2048, outputTokens: 2048, reasoningTokens: 2048, cacheWriteTokens: { ttl5m: 0, ttl1h: 2048 } }],
    [{ inputTokens: 1000, outputTokens: 20, cacheReadTokens: 640, cacheMissTokens: 360, reportsCache: true }],
    [{ inputTokens: 1000, outputTokens: 20, cacheReadTokens: 100, cacheWriteTokens: { ttl5m: 10, ttl1h: 5 }, cacheMissTokens: 300, reportsCache: true }],
    // Inconsistent upstreams: parts beyond their totals are capped, never billed twice.
    [{ inputTokens: 100, outputTokens: 10, reasoningTokens: 25, cacheReadTokens: 90, cacheWriteTokens: { ttl5m: 20, ttl1h: 5 }, cacheMissTokens: 40 }],
    [{ inputTokens: 10, outputTokens: 5, reasoningTokens: 8, cacheReadTokens: 8, cacheWriteTokens: { ttl5m: 4, ttl1h: 0 } }],
  ])('partitions the tokens exactly: %j', (extra) => {
    const u = usage(extra);
    expect(sum(u)).toBe(u.inputTokens + u.outputTokens);
  });

  it('reasoning reported beyond the completion: billed once, as reasoning, and output is what reasoning left', () => {
    const dims = dimensionsFromUsage(usage({ inputTokens: 5, outputTokens: 40, reasoningTokens: 55 }));
    expect(dims).toEqual([
      { name: 'input', quantity: 5, unit: 'tokens' },
      { name: 'output', quantity: 0, unit: 'tokens' },
      { name: 'reasoning', quantity: 40, unit: 'tokens' },
    ]);
  });

  it('never bills a negative quantity when an upstream reports inconsistent parts', () => {
    const dims = dimensionsFromUsage(usage({ inputTokens: 10, outputTokens: 5, reasoningTokens: 8, cacheReadTokens: 8, cacheWriteTokens: { ttl5m: 4, ttl1h: 0 } }));
    expect(dims.every((d) => d.quantity >= 0)).toBe(true);
    expect(quantities(usage({ inputTokens: 10, outputTokens: 5, reasoningTokens: 8, cacheReadTokens: 8, cacheWriteTokens: { ttl5m: 4, ttl1h: 0 } }))).toMatchObject({ input: 0, output: 0 });
  });
});
