import type { VideoCapabilities } from '../config/gateway-config-schema';
import { BUILT_IN_SIMULATOR_VIDEO_GENERATION_MS } from '../providers/built-in-simulator';

/**
 * When to poll a video task upstream. Everything starts from the time the
 * task's route is expected to take (E: the model's
 * `expected_generation_seconds`, or the built-in simulator's own time on a
 * route it serves):
 *
 * - the first poll at half of E (`polling.first_poll_after_ms` overrides), so
 *   a task reports its progress while it runs;
 * - after an answer that the task is still running, the next poll at the
 *   finish that answer points to: a progress p after t elapsed points to
 *   t x 100 / p from the submission; no progress, to E itself while it lies
 *   ahead;
 * - never sooner than the step: a tenth of E, at least 100 ms
 *   (`polling.interval_ms` overrides), growing by a quarter with each poll,
 *   so a task that keeps answering "99 %" backs off instead of being polled
 *   ever faster; never later than `polling.max_interval_ms` (10 s by default),
 *   the most a finished video waits to be noticed;
 * - after a failed poll, the step; an upstream Retry-After pushes any next
 *   poll further.
 *
 * Steps are counted from the poll's due time rather than from when the
 * poller got to it, so a poller running a little late does not stretch every
 * interval (but never sooner than half a step from now, to avoid bursts).
 * With the defaults a 1.5 s simulated generation is polled at 0.75 s (half
 * done) and at 1.5 s (done); a 90 s one at 45 s, then every 9 to 10 s.
 */
export interface PollSchedule {
  /** How long the route is expected to take, ms. */
  expectedMs: number;
  firstPollMs: number;
  /** The first step of the back-off, ms. */
  stepMs: number;
  maxIntervalMs: number;
}

/** The shortest step a schedule derives from a short expected time. */
const MIN_STEP_MS = 100;
/** Each poll of a task lengthens its step by this factor, up to the longest wait. */
const STEP_GROWTH = 1.25;

/** The schedule of a model's tasks on a route (simulated or not). */
export function pollScheduleFor(caps: Pick<VideoCapabilities, 'expected_generation_seconds' | 'polling'>, route: { simulated: boolean }): PollSchedule {
  const expectedMs = route.simulated ? BUILT_IN_SIMULATOR_VIDEO_GENERATION_MS : Math.round(caps.expected_generation_seconds * 1000);
  const { first_poll_after_ms: firstPollMs, interval_ms: stepMs, max_interval_ms: maxIntervalMs } = caps.polling;
  return {
    expectedMs,
    firstPollMs: firstPollMs ?? Math.round(expectedMs / 2),
    stepMs: Math.min(maxIntervalMs, stepMs ?? Math.max(MIN_STEP_MS, Math.round(expectedMs / 10))),
    maxIntervalMs,
  };
}

export function firstPollAt(schedule: PollSchedule, now: number): Date {
  return new Date(now + schedule.firstPollMs);
}

/** What is known when the next poll of a task is set. */
export interface PollOutcome {
  /** Polls of the task so far, this one included. */
  pollCount: number;
  /** When this poll was due, ms. */
  dueAt: number;
  now: number;
  /** When the task was submitted, ms; absent after a failed poll (nothing new was learnt). */
  startedAt?: number;
  /** The upstream's progress, 0 to 100, when it reported one. */
  progress?: number;
  /** The upstream asked to wait this long (Retry-After). */
  retryAfterSeconds?: number;
}

export function nextPollAt(schedule: PollSchedule, outcome: PollOutcome): Date {
  const { pollCount, dueAt, now, retryAfterSeconds } = outcome;
  const step = Math.min(schedule.maxIntervalMs, Math.round(schedule.stepMs * STEP_GROWTH ** Math.max(0, pollCount - 1)));
  const earliest = Math.max(dueAt + step, now + step / 2);
  const latest = Math.max(earliest, dueAt + schedule.maxIntervalMs);
  const finish = expectedFinish(schedule, outcome);
  const at = finish === undefined ? earliest : Math.min(latest, Math.max(earliest, finish));
  return new Date(Math.max(at, now + (retryAfterSeconds ?? 0) * 1000));
}

/** When the task should be done, by its progress or else by the expected time; undefined when nothing says. */
function expectedFinish(schedule: PollSchedule, { startedAt, now, progress }: PollOutcome): number | undefined {
  if (startedAt === undefined) return undefined;
  if (progress !== undefined && progress > 0 && progress < 100) return startedAt + ((now - startedAt) * 100) / progress;
  const expected = startedAt + schedule.expectedMs;
  return expected > now ? expected : undefined;
}
