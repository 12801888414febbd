import type { IdempotencyStore } from '../http/idempotency-store';
import type { Logger } from '../observability/logger';
import { PeriodicRound } from './periodic-round';

/** How often expired Idempotency-Key answers are removed; a claim frees its own key when expired anyway. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Keeps the idempotency table to its 24-hour window: every few minutes it
 * removes expired answers in batches. Any instance may run it; each batch
 * is one statement, so two instances at once only share the work.
 */
export class IdempotencySweeper {
  private readonly rounds: PeriodicRound;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly logger: Logger,
    everyMs = SWEEP_EVERY_MS,
  ) {
    this.rounds = new PeriodicRound(everyMs, () => this.sweep());
  }

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  private async sweep(): Promise<void> {
    try {
      let removed = 0;
      for (let batch = await this.store.deleteExpired(); batch > 0; batch = await this.store.deleteExpired()) removed += batch;
      if (removed) this.logger.info('expired idempotency keys removed', { removed });
    } catch (err) {
      this.logger.warn('idempotency sweep failed; the next one retries', { err });
    }
  }
}
