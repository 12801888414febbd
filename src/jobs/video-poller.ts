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
  /**
   * Longest pause between rounds when nothing was due; the poller wakes
   * sooner for a task it knows is due sooner (see the class).
   */
  idleMs: number;
  /**
   * How often the sweeper pass runs (the first one at start): it ends the
   * holds of finished tasks whose usage record reached the database late.
   * 60 idle pauses by default (a minute with the default pause), at least a second.
   */
  sweepIntervalMs?: number;
}

/** The shortest pause between rounds, so a task due a moment from now does not make the loop spin. */
const MIN_PAUSE_MS = 5;

/**
 * The background loop of one instance: claim due tasks (row leases, so
 * instances share the work without polling a task twice), advance each with
 * one upstream poll, repeat. Each task carries its own next poll time
 * (`videos/poll-schedule.ts`), so the loop only decides when to look, not how
 * often a task is polled: between rounds it sleeps until the soonest of the
 * next due task the claim saw, the next poll of any task this instance
 * scheduled since (submissions, polls, reads: `VideoService.onPollScheduled`),
 * and `idleMs`, which bounds how late it notices tasks other instances
 * scheduled. A restarted instance simply finds the unfinished tasks in the database.
 * Every `sweepIntervalMs` a round also reconciles held charges of finished
 * tasks (`VideoService.reconcileHeldCharges`), which every instance may do.
 */
export class VideoPoller {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Resets the running pause's timer when a sooner task is heard of. */
  private rearm: (() => void) | undefined;
  /** The soonest poll time heard of since the last claim, ms. */
  private soonestHeard = Number.POSITIVE_INFINITY;
  private stopListening: (() => void) | undefined;
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
    this.stopListening = this.videos.onPollScheduled((at) => this.heard(at.getTime()));
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopListening?.();
    this.stopping.abort();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed: VideoTask[] = [];
      let soonestDueInMs: number | null = null;
      try {
        // What is due now is taken by this claim; only what is heard of from here on is news for the pause.
        this.soonestHeard = Number.POSITIVE_INFINITY;
        // No more than can be polled at once: a claimed task waiting its turn would outlive its lease.
        ({ tasks: claimed, soonestDueInMs } = await this.store.claimDue(this.options.owner, this.options.concurrency, this.options.leaseMs));
        const claimedAt = Date.now();
        await forEachConcurrently(claimed, this.options.concurrency, (task) => this.advance(task));
        if (soonestDueInMs !== null) this.heard(claimedAt + soonestDueInMs);
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

  /** A task is due at `at` (ms): a running pause ends then if that is sooner. */
  private heard(at: number): void {
    if (at >= this.soonestHeard) return;
    this.soonestHeard = at;
    this.rearm?.();
  }

  /** Sleeps `idleMs` at most, less when a task is due sooner; `stop` ends it at once. */
  private pause(idleMs: number): Promise<void> {
    const idleEnd = Date.now() + idleMs;
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(done, Math.max(MIN_PAUSE_MS, Math.min(idleEnd, this.soonestHeard) - Date.now()));
      };
      const done = () => {
        clearTimeout(timer);
        this.rearm = undefined;
        this.wake = undefined;
        resolve();
      };
      this.rearm = arm;
      this.wake = done;
      arm();
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
