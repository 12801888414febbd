import { Deadline } from '../deadlines/deadline';
import type { Logger } from '../observability/logger';

/** One thing that stops at shutdown, named for the log. */
export interface ShutdownStep {
  name: string;
  run(): Promise<void> | void;
  /**
   * The longest the shutdown waits for this step before going on with the
   * next (the step itself is left to finish or not): for a step that waits
   * on something outside the process that may not answer, such as a job's
   * round on a database that hangs, which must not hold back the flush of
   * the usage records behind it.
   */
  withinMs?: number;
}

/**
 * Runs the steps one after another, in the order given: each waits for the
 * one before it (or for its `withinMs`), and a step that fails is logged and
 * does not stop the rest (a Redis that will not close must not keep the
 * database open).
 */
export async function runShutdown(steps: ShutdownStep[], logger: Logger): Promise<void> {
  for (const step of steps) {
    try {
      const ran = Promise.resolve().then(() => step.run());
      if (step.withinMs === undefined) await ran;
      else if ((await withinTime(ran, step.withinMs)) === 'late') {
        logger.warn('shutdown step did not finish in time; going on with the next', { step: step.name, within_ms: step.withinMs });
        ran.catch((err: unknown) => logger.error('shutdown step failed after its time', { step: step.name, err }));
      }
    } catch (err) {
      logger.error('shutdown step failed; going on with the next', { step: step.name, err });
    }
  }
}

/** Whether `work` ended within `ms`; it is not stopped when it did not. */
function withinTime(work: Promise<void>, ms: number): Promise<'done' | 'late'> {
  return Deadline.run(ms, [], (deadline) =>
    Promise.race([work.then(() => 'done' as const), new Promise<'late'>((resolve) => deadline.signal.addEventListener('abort', () => resolve('late'), { once: true }))]),
  );
}
