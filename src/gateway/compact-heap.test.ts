import { getHeapSpaceStatistics } from 'node:v8';
import { compactHeapAfterStartup } from './compact-heap';

const youngGeneration = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!;

/** Start-up's pattern: allocations that survive a few scavenges, then are dropped. */
function growYoungGeneration(): void {
  let kept: unknown[] = [];
  for (let round = 0; round < 40; round++) {
    kept.push(Array.from({ length: 20_000 }, (_, i) => ({ round, i, text: `item ${i}` })));
    if (kept.length > 4) kept = kept.slice(1);
  }
}

describe('compactHeapAfterStartup', () => {
  it('collects what start-up left, shrinks the young generation, and leaves no global gc behind', () => {
    growYoungGeneration();
    const before = youngGeneration();

    const { ms } = compactHeapAfterStartup();

    const after = youngGeneration();
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(after.space_used_size).toBeLessThan(before.space_used_size);
    expect(after.space_size).toBeLessThan(before.space_size);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
