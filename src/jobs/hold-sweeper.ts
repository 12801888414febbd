import type { Ledger } from '../billing/ledger';
import type { SpendLeaseStore } from '../billing/spend-lease-store';
import type { Logger } from '../observability/logger';
import { PeriodicRound } from './periodic-round';

const SWEEP_EVERY_MS = 60 * 1000;
/** At start-up the sweep looks this far behind the expiry for holds a stopped instance left open. */
const LOOK_BACK_AT_START_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;
/** An ended lease's row is deleted this long after it ended (its ledger entries stay). */
const FORGET_ENDED_LEASES_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Releases ledger holds whose request died with its instance (no usage
 * record, open past the expiry), and ends the spend leases whose holder
 * stopped renewing them (gateway_take_lease also ends an account's expired
 * leases when another instance leases it), so they stop taking from the
 * wallet and the budgets, and deletes the rows of leases ended a day ago
 * (so the table holds the open leases and a day of ended ones). Each round reads only the holds placed since the previous
 * round's window; any instance may run it, and ending a hold twice is a
 * no-op in the database.
 */
export class HoldSweeper {
  private readonly rounds: PeriodicRound;
  private sweptUpTo: Date;

  constructor(
    private readonly ledger: Ledger,
    private readonly leases: SpendLeaseStore,
    private readonly logger: Logger,
    private readonly expiryMs: number,
    everyMs = SWEEP_EVERY_MS,
  ) {
    this.sweptUpTo = new Date(Date.now() - expiryMs - LOOK_BACK_AT_START_MS);
    this.rounds = new PeriodicRound(everyMs, () => this.sweep());
  }

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** One round: the holds placed between the last round's end and the expiry are released if still open. */
  async sweep(now = Date.now()): Promise<number> {
    try {
      let expired = 0;
      for (let batch = BATCH; batch === BATCH; expired += batch) batch = await this.leases.expire(BATCH);
      if (expired) this.logger.warn('expired spend leases given back: their instance stopped renewing them', { expired });
      for (let batch = BATCH; batch === BATCH; ) batch = await this.leases.forgetEnded(FORGET_ENDED_LEASES_AFTER_MS, BATCH);
    } catch (err) {
      this.logger.warn('lease sweep failed; the next one retries', { err });
    }
    const to = new Date(now - this.expiryMs);
    if (to <= this.sweptUpTo) return 0;
    try {
      let released = 0;
      for (let batch = BATCH; batch === BATCH; released += batch) batch = await this.ledger.releaseExpiredHolds(this.sweptUpTo, to, BATCH);
      this.sweptUpTo = to;
      if (released) this.logger.warn('expired spend holds released: their requests ended without a usage record', { released, placed_before: to.toISOString() });
      return released;
    } catch (err) {
      this.logger.warn('hold sweep failed; the next one retries', { err });
      return 0;
    }
  }
}
