import type { FileService } from '../files/file-service';
import type { Logger } from '../observability/logger';

/**
 * Removes files whose time is up (past their retention, deleted, or an
 * upload the gateway never finished): once at start, then every
 * `intervalMs` (GATEWAY_FILE_SWEEP_MS). Each round goes on while it finds
 * full batches, so a backlog clears in one round. Every instance may run
 * one: `FileService.sweep` claims rows, so two sweepers never take the same
 * file.
 */
export class FileSweeper {
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;

  constructor(
    private readonly files: FileService,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.running || this.intervalMs <= 0) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops scheduling rounds and waits for the one under way. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.round;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.round = this.sweepAll().finally(() => {
        this.round = undefined;
        if (this.running) this.schedule(this.intervalMs);
      });
    }, delayMs);
    // A pending round never holds the process open.
    this.timer.unref();
  }

  private async sweepAll(): Promise<void> {
    let removed = 0;
    let failed = 0;
    try {
      for (let more = true; more && this.running; ) {
        const result = await this.files.sweep();
        removed += result.removed;
        failed += result.failed;
        more = result.more && result.removed > 0;
      }
    } catch (err) {
      this.logger.error('file sweep failed; retrying on the next round', { err });
    }
    if (removed || failed) this.logger.info('expired and deleted files swept', { removed, failed });
  }
}
