import type { TimePartitions, TimePartitionedTable } from '../db/time-partitions';
import type { Logger } from '../observability/logger';
import { PeriodicRound } from './periodic-round';

/** How often the month partitions are checked: they are made two months ahead, so a few missed rounds change nothing. */
const KEEP_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** How long each table keeps its rows, in days; a table not named keeps them all. */
export type RetentionDays = Partial<Record<Extract<TimePartitionedTable, 'usage_records' | 'ledger_entries'>, number>>;

/**
 * Keeps the time-partitioned tables' month partitions: every round makes
 * those of this month and the next two when missing, moves rows the default
 * partition caught into their month's, and drops whole the usage record and
 * ledger months past their retention (`GATEWAY_USAGE_RETENTION_DAYS`,
 * `GATEWAY_LEDGER_RETENTION_DAYS`; a ledger month's sums go to the
 * checkpoints first). Stored responses are dropped by their own sweep
 * (jobs/response-sweeper.ts). Any instance may run it at the same time as
 * another: the database serialises the work and makes nothing twice.
 */
export class PartitionKeeper {
  private readonly rounds: PeriodicRound;

  constructor(
    private readonly partitions: TimePartitions,
    private readonly retentionDays: RetentionDays,
    private readonly logger: Logger,
    everyMs = KEEP_EVERY_MS,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.rounds = new PeriodicRound(everyMs, () => this.round());
  }

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** One round; a failure is logged and left to the next one. Returns the partitions it dropped. */
  async round(): Promise<string[]> {
    const dropped: string[] = [];
    try {
      const now = this.now();
      const made = await this.partitions.prepare(now);
      if (made.length) this.logger.info('month partitions made', { partitions: made });
      for (const [table, days] of Object.entries(this.retentionDays) as Array<[TimePartitionedTable, number]>) {
        for (const { partition, outcome } of await this.partitions.dropBefore(table, new Date(now.getTime() - days * DAY_MS))) {
          if (outcome === 'dropped') dropped.push(partition);
          else this.logger.warn('a month partition past its retention is kept for now', { partition, retention_days: days, reason: outcome });
        }
      }
      if (dropped.length) this.logger.info('month partitions past their retention dropped', { partitions: dropped });
    } catch (err) {
      this.logger.warn('month partition upkeep failed; the next round retries', { err });
    }
    return dropped;
  }
}
