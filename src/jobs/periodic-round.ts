/**
 * A background round run every `everyMs`, never two at once (a slow round
 * skips the ticks it overlaps), on a timer that does not keep the process
 * alive. `stop` clears the timer and waits for a round in progress.
 */
export class PeriodicRound {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly everyMs: number,
    private readonly round: () => Promise<unknown>,
  ) {}

  start(): void {
    this.timer = setInterval(() => void (this.running ??= this.round().finally(() => (this.running = undefined))), this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
