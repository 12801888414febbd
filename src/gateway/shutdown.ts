import type { Logger } from '../observability/logger';

/** One thing that stops at shutdown, named for the log. */
export interface ShutdownStep {
  name: string;
  run(): Promise<void> | void;
}

/**
 * Runs the steps one after another, in the order given: each waits for the
 * one before it, and a step that fails is logged and does not stop the
 * rest (a Redis that will not close must not keep the database open).
 */
export async function runShutdown(steps: ShutdownStep[], logger: Logger): Promise<void> {
  for (const step of steps) {
    try {
      await step.run();
    } catch (err) {
      logger.error('shutdown step failed; going on with the next', { step: step.name, err });
    }
  }
}
