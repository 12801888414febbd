/**
 * Counts how often each prompt was seen, for `fail_times`: a retry or a
 * fallback sends the same prompt again, and the simulator must fail the first
 * attempts and answer the later ones. Bounded: the oldest prompts are
 * forgotten first, so a long benchmark cannot grow it without limit.
 */
export class FailureCounter {
  private readonly seen = new Map<string, number>();
  private readonly capacity: number;

  constructor(capacity = 10_000) {
    this.capacity = capacity;
  }

  /** Records one more sighting of `key` and returns how many there have been, this one included. */
  countSighting(key: string): number {
    const count = (this.seen.get(key) ?? 0) + 1;
    this.seen.delete(key);
    this.seen.set(key, count);
    if (this.seen.size > this.capacity) this.forgetOldest();
    return count;
  }

  private forgetOldest(): void {
    const oldest = this.seen.keys().next();
    if (!oldest.done) this.seen.delete(oldest.value);
  }
}
