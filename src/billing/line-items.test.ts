import { modelSchema, type ModelConfig } from '../config/gateway-config-schema';
import { billDimensions } from './line-items';
import { PriceTable } from './price-table';
import type { UsageDimension } from './usage-dimensions';

const model = (id: string, pricing: ModelConfig['pricing'], lanes: Record<string, ModelConfig['pricing']> = {}): ModelConfig =>
  modelSchema.parse({
    id, owned_by: 'x', family: 'openai', endpoint_types: ['chat'], context_window: 1000, pricing,
    routes: [{ provider: 'p', upstream_model: id }, ...Object.entries(lanes).map(([lane, p]) => ({ provider: 'p', upstream_model: id, lane, pricing: p }))],
  });

const table = new PriceTable([
  model('tiny', { input: '0.10', output: '0.30' }, { batch: { input: '0.05' } }),
  model('mini', { input: '0.40', cache_read: '0.10', output: '1.60' }),
  model('deep', { input: '0.56', cache_read: '0.07', cache_write_5m: '0.70', cache_miss: '0.27', output: '1.68' }),
  model('video', { video_seconds_480p: { usd: '0.05', per: 1 }, video_seconds_720p: { usd: '0.10', per: 1 } }),
]);
const tokens = (name: string, quantity: number): UsageDimension => ({ name, quantity, unit: 'tokens' });

describe('billDimensions', () => {
  it.each<[string, string, string, UsageDimension, number, number]>([
    // [model, lane, why, dimension, unit_microusd, amount_microusd]
    ['mini', 'standard', 'rounds 2.8 up', tokens('input', 7), 0.4, 3],
    ['mini', 'standard', 'rounds 2.0 exactly', tokens('input', 5), 0.4, 2],
    ['tiny', 'standard', 'rounds half (0.5) up', tokens('input', 5), 0.1, 1],
    ['tiny', 'standard', 'rounds 0.4 down', tokens('input', 4), 0.1, 0],
    ['tiny', 'standard', 'rounds 1.5 up', tokens('output', 5), 0.3, 2],
    ['mini', 'standard', 'prices reasoning as output when it has no price', tokens('reasoning', 100), 1.6, 160],
    ['mini', 'standard', 'prices cache writes as input when they have no price', tokens('cache_write_5m', 1000), 0.4, 400],
    ['mini', 'standard', 'takes the cache_read price', tokens('cache_read', 1000), 0.1, 100],
    ['deep', 'standard', 'takes the cache_miss price', tokens('cache_miss', 1000), 0.27, 270],
    ['mini', 'standard', 'prices cache misses as input when they have no price', tokens('cache_miss', 1000), 0.4, 400],
    ['tiny', 'batch', 'takes the lane price', tokens('input', 1_000_000), 0.05, 50_000],
    ['tiny', 'batch', 'falls back to the model price for what the lane does not price', tokens('output', 1_000_000), 0.3, 300_000],
    ['video', 'standard', 'prices per second', { name: 'video_seconds_720p', quantity: 6, unit: 'seconds' }, 100_000, 600_000],
    ['mini', 'standard', 'bills zero for a dimension without any price', tokens('web_search', 3), 0, 0],
    ['unknown', 'standard', 'bills zero for a model without prices', tokens('input', 1000), 0, 0],
    ['mini', 'nowhere', 'bills zero for a lane without prices', tokens('input', 1000), 0, 0],
  ])('%s@%s %s', (modelId, lane, _, dim, unit, amount) => {
    const bill = billDimensions(table, modelId, lane, [dim]);
    expect(bill.lineItems).toEqual([{ dimension: dim.name, quantity: dim.quantity, unit_microusd: unit, amount_microusd: amount }]);
    expect(bill.amountMicroUsd).toBe(BigInt(amount));
  });

  it('rounds each line item, and the total is the sum of the rounded items', () => {
    // 0.5 + 0.5 + 1.5 micro-USD unrounded (2.5 in all); rounded per item 1 + 1 + 2.
    const bill = billDimensions(table, 'tiny', 'standard', [tokens('input', 5), tokens('cache_read', 5), tokens('output', 5)]);
    expect(bill.lineItems.map((l) => l.amount_microusd)).toEqual([1, 1, 2]);
    expect(bill.amountMicroUsd).toBe(4n);
    expect(typeof bill.amountMicroUsd).toBe('bigint');
  });

  it('keeps one line item per dimension, in order, zero quantities included', () => {
    const bill = billDimensions(table, 'mini', 'standard', [tokens('input', 0), tokens('cache_read', 0), tokens('output', 75)]);
    expect(bill.lineItems).toEqual([
      { dimension: 'input', quantity: 0, unit_microusd: 0.4, amount_microusd: 0 },
      { dimension: 'cache_read', quantity: 0, unit_microusd: 0.1, amount_microusd: 0 },
      { dimension: 'output', quantity: 75, unit_microusd: 1.6, amount_microusd: 120 },
    ]);
    expect(bill.amountMicroUsd).toBe(120n);
  });

  it('bills cache reads, writes and misses each at its own price, each as its own line item', () => {
    const bill = billDimensions(table, 'deep', 'standard', [
      tokens('input', 100), tokens('cache_read', 1000), tokens('cache_write_5m', 1000), tokens('cache_miss', 1000), tokens('output', 10),
    ]);
    expect(bill.lineItems).toEqual([
      { dimension: 'input', quantity: 100, unit_microusd: 0.56, amount_microusd: 56 },
      { dimension: 'cache_read', quantity: 1000, unit_microusd: 0.07, amount_microusd: 70 },
      { dimension: 'cache_write_5m', quantity: 1000, unit_microusd: 0.7, amount_microusd: 700 },
      { dimension: 'cache_miss', quantity: 1000, unit_microusd: 0.27, amount_microusd: 270 },
      { dimension: 'output', quantity: 10, unit_microusd: 1.68, amount_microusd: 17 },
    ]);
    expect(bill.amountMicroUsd).toBe(56n + 70n + 700n + 270n + 17n);
  });

  it('no dimensions: no line items and nothing to pay', () => {
    expect(billDimensions(table, 'mini', 'standard', [])).toEqual({ lineItems: [], amountMicroUsd: 0n });
  });
});
