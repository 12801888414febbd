import { modelSchema } from '../config/gateway-config-schema';
import { billDimensions } from './line-items';
import { PriceTable } from './price-table';
import { holdMicrousd, worstCaseMicrousd, type PricedRoute } from './spend-estimate';
import type { UsageDimension } from './usage-dimensions';

/**
 * The price sheet these rules are stated on (USD per million tokens, so
 * micro-USD per token): input 2.50, a 5-minute cache write 3.125 (the
 * dearest a prompt token can be), a cache read 0.25, output 10.00 (reasoning
 * has no price of its own, so it is output); on the `priority` lane output
 * costs 20.00. A video model bills 0.10 USD a second.
 */
const table = new PriceTable([
  modelSchema.parse({
    id: 'sheet', owned_by: 'x', family: 'openai', endpoint_types: ['chat'], context_window: 200_000, max_output_tokens: 8_192,
    pricing: { input: '2.50', cache_write_5m: '3.125', cache_read: '0.25', output: '10.00', service_tier_priority: '1.00' },
    routes: [{ provider: 'p', upstream_model: 'u' }, { provider: 'q', upstream_model: 'u', lane: 'priority', pricing: { output: '20.00' } }],
  }),
  modelSchema.parse({
    id: 'clip', owned_by: 'x', family: 'openai', endpoint_types: ['videos'], context_window: 1,
    pricing: { video_seconds: { usd: '0.10', per: 1 } }, routes: [{ provider: 'p', upstream_model: 'v' }],
  }),
  modelSchema.parse({
    id: 'odd', owned_by: 'x', family: 'openai', endpoint_types: ['chat'], context_window: 100_000, max_output_tokens: 4_000,
    pricing: { input: '0.333333', cache_read: '0.033333', cache_write_5m: '0.416667', cache_write_1h: '0.666667', cache_miss: '0.35', output: '1.777777', reasoning: '1.9' },
    routes: [{ provider: 'p', upstream_model: 'o' }],
  }),
]);

const sheet: PricedRoute = { modelId: 'sheet', lane: 'standard', maxInputTokens: 200_000, maxOutputTokens: 8_192, contextWindow: 200_000 };
const sheetPriority: PricedRoute = { ...sheet, lane: 'priority' };

describe('the worst case of a call on one route, in micro-USD', () => {
  it('prices the prompt at the dearest prompt price and the output cap at the output price, each with 3 of rounding slack', () => {
    // 1,000 × 3.125 + 3, and 500 × 10 + 3.
    expect(worstCaseMicrousd(table, sheet, { promptTokens: 1_000, outputCap: 500 })).toBe(3_128n + 5_003n);
  });

  it("takes the model's maximum output when the request sets no cap, and never more than it", () => {
    // 8,192 × 10 + 3 for the output.
    expect(worstCaseMicrousd(table, sheet, { promptTokens: 1_000, outputCap: null })).toBe(3_128n + 81_923n);
    expect(worstCaseMicrousd(table, sheet, { promptTokens: 1_000, outputCap: 100_000 })).toBe(3_128n + 81_923n);
  });

  it('bounds the output by the context window when the model names no maximum output', () => {
    expect(worstCaseMicrousd(table, { ...sheet, maxOutputTokens: null }, { promptTokens: 0, outputCap: null })).toBe(200_000n * 10n + 3n);
  });

  it("caps the prompt at what the model takes (a file may fill it)", () => {
    // 200,000 × 3.125 + 3.
    expect(worstCaseMicrousd(table, sheet, { promptTokens: Number.MAX_SAFE_INTEGER, outputCap: 500 })).toBe(625_003n + 5_003n);
  });

  it('counts the output cap once per completion asked for', () => {
    // 4 × 500 × 10 + 3.
    expect(worstCaseMicrousd(table, sheet, { promptTokens: 1_000, outputCap: 500, choices: 4 })).toBe(3_128n + 20_003n);
    expect(worstCaseMicrousd(table, sheet, { promptTokens: 0, outputCap: null, choices: 2 })).toBe(2n * 8_192n * 10n + 3n);
  });

  it("adds a paid tier's price on every prompt and output token", () => {
    // (1,000 + 500) × 1.00 + 3.
    expect(worstCaseMicrousd(table, sheet, { promptTokens: 1_000, outputCap: 500, perTokenDimensions: ['service_tier_priority'] })).toBe(8_131n + 1_503n);
  });

  it("prices a lane at its own prices", () => {
    // 500 × 20 + 3 for the output on the priority lane.
    expect(worstCaseMicrousd(table, sheetPriority, { promptTokens: 1_000, outputCap: 500 })).toBe(3_128n + 10_003n);
  });

  it('prices other dimensions as they are (a video of 8 seconds)', () => {
    const clip: PricedRoute = { modelId: 'clip', lane: 'standard', maxInputTokens: 1, maxOutputTokens: null, contextWindow: 1 };
    expect(worstCaseMicrousd(table, clip, { promptTokens: 0, outputCap: 0, dimensions: [{ name: 'video_seconds', quantity: 8, unit: 'seconds' }] })).toBe(800_000n);
  });

  it('holds nothing for what the route does not price', () => {
    expect(worstCaseMicrousd(table, { ...sheet, modelId: 'unpriced' }, { promptTokens: 1_000, outputCap: 500 })).toBe(0n);
  });
});

describe('the hold of a call over its routes', () => {
  it('is the worst case on the dearest route, wherever it is in the fallback order', () => {
    const estimate = { promptTokens: 1_000, outputCap: 500 };
    expect(holdMicrousd(table, [sheet, sheetPriority], estimate)).toBe(13_131n);
    expect(holdMicrousd(table, [sheetPriority, sheet], estimate)).toBe(13_131n);
    expect(holdMicrousd(table, [], estimate)).toBe(0n);
  });
});

describe('a hold is never below the charge of a call within its bounds', () => {
  const odd: PricedRoute = { modelId: 'odd', lane: 'standard', maxInputTokens: 100_000, maxOutputTokens: 4_000, contextWindow: 100_000 };
  const inputNames = ['input', 'cache_read', 'cache_write_5m', 'cache_write_1h', 'cache_miss'];

  /** Splits `total` over `names` in the proportions `weights`, the rest to the first. */
  function split(names: string[], total: number, weights: number[]): UsageDimension[] {
    const sum = weights.reduce((a, b) => a + b, 0) || 1;
    const parts = weights.map((w) => Math.floor((total * w) / sum));
    parts[0]! += total - parts.reduce((a, b) => a + b, 0);
    return names.map((name, i) => ({ name, quantity: parts[i]!, unit: 'tokens' }));
  }

  it.each([
    [1, 1],
    [7, 3],
    [999, 1],
    [12_345, 3_999],
    [100_000, 4_000],
  ])('with a prompt of %i tokens and an output of %i, however they split over priced dimensions', (prompt, output) => {
    const hold = worstCaseMicrousd(table, odd, { promptTokens: prompt, outputCap: output });
    let dearestBill = 0n;
    // Every way of splitting over the five prompt and two output dimensions, in coarse proportions, each line rounded on its own.
    for (const inWeights of [[1, 0, 0, 0, 0], [0, 0, 0, 1, 0], [1, 1, 1, 1, 1], [0, 1, 1, 1, 1], [3, 1, 0, 5, 2], [0, 0, 1, 1, 0]]) {
      for (const outWeights of [[1, 0], [0, 1], [1, 1], [1, 3]]) {
        const bill = billDimensions(table, 'odd', 'standard', [...split(inputNames, prompt, inWeights), ...split(['output', 'reasoning'], output, outWeights)]).amountMicroUsd;
        expect(bill).toBeLessThanOrEqual(hold);
        if (bill > dearestBill) dearestBill = bill;
      }
    }
    // And not far above the dearest of them: the slack is rounding, not a margin.
    expect(hold - dearestBill).toBeLessThanOrEqual(8n);
  });
});
