import type { Logger } from '../observability/logger';
import type { ResponseStore } from '../responses/response-store';
import { PeriodicRound } from './periodic-round';

/** How often expired stored responses are removed; reads skip them already, so this only reclaims space. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;
/** Rows removed per statement: each batch is short, so it never holds locks long (nor PGlite's one connection). */
const BATCH = 1000;

/**
 * Keeps `stored_responses` to its retention (`GATEWAY_RESPONSES_RETENTION_DAYS`):
 * every few minutes it drops the month partitions whose every response has
 * expired, whole, then removes the expired responses of the months still
 * kept in bounded batches until none are left (a response's expiry is its
 * own, so a month's first days expire before its last). Any instance may
 * run it; each batch is one statement, and partitions are dropped under the
 * database's lock, so two instances at once only share the work.
 */
export class ResponseSweeper {
  private readonly rounds: PeriodicRound;

  constructor(
    private readonly store: Pick<ResponseStore, 'deleteExpired' | 'dropExpiredPartitions'>,
    private readonly logger: Logger,
    everyMs = SWEEP_EVERY_MS,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.rounds = new PeriodicRound(everyMs, () => this.sweep());
  }

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** One round: whole months first, then batches until one comes back short; how many responses it removed row by row. A failure is logged and left to the next round. */
  async sweep(): Promise<number> {
    let removed = 0;
    try {
      const now = this.now();
      const dropped = await this.store.dropExpiredPartitions(now);
      if (dropped.length) this.logger.info('months of expired stored responses dropped', { partitions: dropped });
      for (let batch = BATCH; batch === BATCH; removed += batch) batch = await this.store.deleteExpired(BATCH, now);
    } catch (err) {
      this.logger.warn('stored response sweep failed; the next one retries', { err });
    }
    if (removed) this.logger.info('expired stored responses removed', { removed });
    return removed;
  }
}
