import { amountMicroUsd, parseUnitPrice, unitMicroUsd } from './price';
import { PriceTable } from './price-table';
import { billDimensions } from './line-items';
import { dimensionsFromUsage } from './usage-dimensions';
import type { ModelConfig } from '../config/gateway-config-schema';

describe('price math in integer micro-USD', () => {
  it.each([
    // [price USD per million, quantity, expected micro-USD]
    ['0.40', 7, 3n], // 2.8 rounds up
    ['0.40', 5, 2n], // 2.0 exactly
    ['1.60', 75, 120n],
    ['0.10', 5, 1n], // 0.5 rounds half up
    ['0.10', 4, 0n], // 0.4 rounds down
    ['0.275', 1000, 275n],
    ['15.00', 1_000_000, 15_000_000n],
    ['0.000001', 1_000_000_000, 1000n],
  ])('%s USD/M x %d tokens = %d micro-USD', (usd, qty, expected) => {
    expect(amountMicroUsd(qty, parseUnitPrice(usd))).toBe(expected);
  });

  it('parses numbers through their shortest decimal, never a binary float', () => {
    expect(parseUnitPrice(0.275).picoUsd).toBe(275_000_000_000n);
    expect(parseUnitPrice(0.1).picoUsd).toBe(100_000_000_000n);
    expect(unitMicroUsd(parseUnitPrice('2.50'))).toBe(2.5);
  });

  it('prices per unit other than a million (per second, per request)', () => {
    const perSecond = parseUnitPrice({ usd: '0.05', per: 1 });
    expect(amountMicroUsd(6, perSecond)).toBe(300_000n);
    expect(unitMicroUsd(perSecond)).toBe(50_000);
  });

  it('never overflows: a billion tokens at $100 per million', () => {
    expect(amountMicroUsd(1_000_000_000, parseUnitPrice('100'))).toBe(100_000_000_000n);
  });
});

describe('price table and line items', () => {
  const model = (id: string, pricing: Record<string, string>, lanePricing?: Record<string, string>): ModelConfig => ({
    id, enabled: true, owned_by: 'x', family: 'openai', endpoint_types: ['chat'], context_window: 1000,
    modalities: { input: ['text'], output: ['text'] },
    capabilities: { tools: false, tool_choice: false, json_output: false, vision: false, streaming: true, prompt_caching: false, structured_outputs: false },
    pricing,
    routes: [{ provider: 'p', upstream_model: id, lane: 'standard' }, ...(lanePricing ? [{ provider: 'p', upstream_model: id, lane: 'batch', pricing: lanePricing }] : [])],
  });

  it('falls back: reasoning at the output price, cache reads at the input price', () => {
    const table = new PriceTable([model('m', { input: '1.00', output: '4.00' })]);
    expect(table.priceOf('m', 'standard', 'reasoning')!.usd).toBe('4.00');
    expect(table.priceOf('m', 'standard', 'cache_read')!.usd).toBe('1.00');
    expect(table.priceOf('m', 'standard', 'web_search')).toBeNull();
  });

  it('lane prices override the model price', () => {
    const table = new PriceTable([model('m', { input: '1.00', output: '4.00' }, { input: '0.50' })]);
    expect(table.priceOf('m', 'batch', 'input')!.usd).toBe('0.50');
    expect(table.priceOf('m', 'batch', 'output')!.usd).toBe('4.00');
  });

  it('the same prices give the same digest, changed prices another', () => {
    const a = new PriceTable([model('m', { input: '1.00', output: '4.00' })]);
    const b = new PriceTable([model('m', { output: '4.00', input: '1.00' })]);
    const c = new PriceTable([model('m', { input: '1.00', output: '4.01' })]);
    expect(a.digest).toBe(b.digest);
    expect(a.digest).not.toBe(c.digest);
  });

  it('dimensions partition the tokens and the total is the sum of rounded line items', () => {
    const dims = dimensionsFromUsage({
      inputTokens: 1000, outputTokens: 500, reasoningTokens: 200, cacheReadTokens: 300,
      cacheWriteTokens: { ttl5m: 100, ttl1h: 50 }, reportsCache: true, family: 'anthropic', raw: {},
    });
    expect(dims).toEqual([
      { name: 'input', quantity: 550, unit: 'tokens' },
      { name: 'cache_read', quantity: 300, unit: 'tokens' },
      { name: 'cache_write_5m', quantity: 100, unit: 'tokens' },
      { name: 'cache_write_1h', quantity: 50, unit: 'tokens' },
      { name: 'output', quantity: 300, unit: 'tokens' },
      { name: 'reasoning', quantity: 200, unit: 'tokens' },
    ]);
    const table = new PriceTable([model('c', { input: '3.00', cache_read: '0.30', cache_write_5m: '3.75', cache_write_1h: '6.00', output: '15.00' })]);
    const bill = billDimensions(table, 'c', 'standard', dims);
    expect(bill.lineItems.map((l) => l.amount_microusd)).toEqual([1650, 90, 375, 300, 4500, 3000]);
    expect(bill.amountMicroUsd).toBe(9915n);
  });
});
