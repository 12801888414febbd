import { refundedLineItems, settledLineItems } from './task-billing';

const seconds = (quantity: number, amount: number, dimension = 'video_seconds_720p') => ({ dimension, quantity, unit_microusd: amount / quantity, amount_microusd: amount });

describe('task billing: a held charge settled for what was delivered', () => {
  it.each([
    ['all delivered', 6, 6, 6, 300_000],
    ['a rounded-up delivery never charges more than held', 6, 7, 6, 300_000],
    ['part delivered, pro rata', 6, 3, 3, 150_000],
    ['nothing delivered', 6, 0, 0, 0],
    ['a negative report counts as nothing', 6, -2, 0, 0],
  ])('%s', (_name, requested, delivered, quantity, amount) => {
    const { lineItems, amountMicrousd } = settledLineItems([seconds(6, 300_000)], requested, delivered);
    expect(lineItems).toEqual([{ dimension: 'video_seconds_720p', quantity, unit_microusd: 50_000, amount_microusd: amount }]);
    expect(amountMicrousd).toBe(BigInt(amount));
  });

  it('rounds each line item half up in integers, and the total is their sum', () => {
    // 100 × 1/3 = 33.33 -> 33; 5 × 1/3 = 1.67 -> 2
    const { lineItems, amountMicrousd } = settledLineItems([seconds(3, 100, 'a'), seconds(3, 5, 'b')], 3, 1);
    expect(lineItems.map((i) => i.amount_microusd)).toEqual([33, 2]);
    expect(amountMicrousd).toBe(35n);
  });

  it('settles each line item on its own amount, not the total on each', () => {
    const { lineItems, amountMicrousd } = settledLineItems([seconds(4, 200_000, 'video_seconds_720p'), seconds(4, 40_000, 'audio_seconds')], 4, 2);
    expect(lineItems.map((i) => [i.dimension, i.quantity, i.amount_microusd])).toEqual([
      ['video_seconds_720p', 2, 100_000],
      ['audio_seconds', 2, 20_000],
    ]);
    expect(amountMicrousd).toBe(120_000n);
  });

  it('keeps exact integers far beyond 2^53 micro-USD in the total', () => {
    const big = 2 ** 52;
    const { amountMicrousd } = settledLineItems([seconds(1, big, 'a'), seconds(1, big, 'b'), seconds(1, big, 'c')], 1, 1);
    expect(amountMicrousd).toBe(3n * BigInt(big));
  });

  it('a refund charges nothing and keeps quantities and unit prices for audit', () => {
    expect(refundedLineItems([seconds(6, 300_000)])).toEqual([{ dimension: 'video_seconds_720p', quantity: 6, unit_microusd: 50_000, amount_microusd: 0 }]);
  });
});
