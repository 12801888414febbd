import type { Logger } from '../observability/logger';
import type { VideoService } from '../videos/video-service';
import type { VideoTask } from '../videos/video-task';
import type { VideoTaskStore } from '../videos/video-task-store';

export interface VideoPollerOptions {
  /** Lease owner name of this instance. */
  owner: string;
  leaseMs: number;
  /** Tasks claimed per round, all polled at once. */
  concurrency: number;
  /** Pause between rounds when nothing was due. */
  idleMs: number;
  /**
   * How often the sweeper pass runs (the first one at start): it ends the
   * holds of finished tasks whose usage record reached the database late.
   * 60 idle pauses by default (a minute with the default pause), at least a second.
   */
  sweepIntervalMs?: number;
}

/**
 * The background loop of one instance: claim due tasks (row leases, so
 * instances share the work without polling a task twice), advance each with
 * one upstream poll, repeat. Each task carries its own next poll time, so
 * the loop only decides how often to look, not how often a task is polled.
 * A restarted instance simply finds the unfinished tasks in the database.
 * Every `sweepIntervalMs` a round also reconciles held charges of finished
 * tasks (`VideoService.reconcileHeldCharges`), which every instance may do.
 */
export class VideoPoller {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Aborts the polls in flight when the instance stops; their tasks stay due for the next poller. */
  private readonly stopping = new AbortController();
  private nextSweepAt = 0;

  constructor(
    private readonly store: VideoTaskStore,
    private readonly videos: VideoService,
    private readonly logger: Logger,
    private readonly options: VideoPollerOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed: VideoTask[] = [];
      try {
        // No more than can be polled at once: a claimed task waiting its turn would outlive its lease.
        claimed = await this.store.claimDue(this.options.owner, this.options.concurrency, this.options.leaseMs);
        await forEachConcurrently(claimed, this.options.concurrency, (task) => this.advance(task));
      } catch (err) {
        this.logger.error('video poller round failed', { err });
      }
      await this.sweepIfDue();
      if (claimed.length < this.options.concurrency && this.running) await this.pause(this.options.idleMs);
    }
  }

  private async sweepIfDue(): Promise<void> {
    if (!this.running || Date.now() < this.nextSweepAt) return;
    this.nextSweepAt = Date.now() + (this.options.sweepIntervalMs ?? Math.max(1_000, 60 * this.options.idleMs));
    try {
      const { settled, refunded, more } = await this.videos.reconcileHeldCharges();
      if (settled || refunded) this.logger.info('held charges of finished video tasks reconciled', { settled, refunded });
      if (more && (settled || refunded)) this.nextSweepAt = 0; // a backlog (after an outage): the next round goes on with it
    } catch (err) {
      this.logger.error('held charge sweep failed; retrying on the next pass', { err });
    }
  }

  private async advance(task: VideoTask): Promise<void> {
    try {
      await this.videos.advance(task, this.stopping.signal);
    } catch (err) {
      // The lease expires on its own; the task is retried on its next round.
      this.logger.error('video task poll failed', { task_id: task.id, err });
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      this.wake = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

async function forEachConcurrently<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(workers);
}
