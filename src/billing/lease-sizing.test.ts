import { DEFAULT_LEASE_SIZING, HoldRate, leaseWanted } from './lease-sizing';

describe('lease sizing', () => {
  it('counts the holds of the last second, the previous second fading out', () => {
    const rate = new HoldRate();
    for (let i = 0; i < 20; i++) rate.note(100n, 1_000 + i * 10);
    expect(rate.perSecond(1_500)).toEqual({ calls: 20, microusd: 2_000n });
    // Half of the next second gone: half of the previous one still counts.
    expect(rate.perSecond(2_500)).toEqual({ calls: 10, microusd: 1_000n });
    // Two seconds later nothing is left.
    expect(rate.perSecond(4_100)).toEqual({ calls: 0, microusd: 0n });
  });

  it('gives a quiet caller no lease, and a hot one about two seconds of its holds', () => {
    expect(leaseWanted({ calls: 3, microusd: 300n }, 100n, DEFAULT_LEASE_SIZING)).toBeNull();
    expect(leaseWanted({ calls: 500, microusd: 50_000n }, 100n, DEFAULT_LEASE_SIZING)).toBe(100_000n);
  });

  it('never asks for less than twice the smallest lease, nor for a free call', () => {
    expect(leaseWanted({ calls: 10, microusd: 100n }, 100n, DEFAULT_LEASE_SIZING)).toBe(400n);
    expect(leaseWanted({ calls: 100, microusd: 0n }, 0n, DEFAULT_LEASE_SIZING)).toBeNull();
  });
});
