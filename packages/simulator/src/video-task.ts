import type { SimulatedFailure } from './directive-gate';
import type { Directives } from './directives';

/**
 * What both simulated video APIs (OpenAI Videos, xAI) share: a task's fate,
 * read once from the `[sim ...]` directives of its prompt, and the clock that
 * moves it from running to that fate. Nothing runs in the background: a
 * task's state is computed from the time whenever it is polled.
 */

/** How a task ends once its generation time has passed; `never` keeps it running. */
export type VideoOutcome = 'done' | 'failed' | 'expired' | 'never';

export interface VideoTaskPlan {
  generationMs: number;
  outcome: VideoOutcome;
  /** Done, but the output failed moderation. */
  moderated: boolean;
  /** The error a failed task reports. */
  failure: { code: string; message: string };
  /** How many polls fail before the task answers, and how. */
  pollFailures: number;
  pollFailure: SimulatedFailure;
}

export interface VideoTask {
  plan: VideoTaskPlan;
  /** Milliseconds since the epoch. */
  submittedAt: number;
  /** Polls answered with the planned failure so far. */
  failedPolls: number;
}

export type VideoTaskPhase = { phase: 'running'; progress: number } | { phase: Exclude<VideoOutcome, 'never'> };

const DEFAULT_POLL_FAILURE_STATUS = 500;
/** The real APIs do not document failure codes; this one is the simulator's own. */
const DEFAULT_FAILURE_CODE = 'generation_failed';
/** A running task never reports 100: that is for a finished one. */
const MAX_RUNNING_PROGRESS = 99;

/** The plan a prompt's directives ask for; fates that exclude each other are refused, like any malformed directive. */
export function planVideoTask(directives: Directives, defaultGenerationMs: number): { ok: true; plan: VideoTaskPlan } | { ok: false; message: string } {
  const fates = (['fail', 'expire', 'never'] as const).filter((key) => directives[key]);
  if (fates.length > 1) return { ok: false, message: `Simulator directives ${fates.map((key) => `'${key}'`).join(' and ')} exclude each other.` };
  return {
    ok: true,
    plan: {
      generationMs: directives.generationMs ?? defaultGenerationMs,
      outcome: directives.fail ? 'failed' : directives.expire ? 'expired' : directives.never ? 'never' : 'done',
      moderated: directives.moderated === true,
      failure: { code: directives.code ?? DEFAULT_FAILURE_CODE, message: 'The video could not be generated.' },
      pollFailures: directives.pollFailTimes ?? 0,
      pollFailure: { status: directives.status ?? DEFAULT_POLL_FAILURE_STATUS, code: directives.code, retryAfterSeconds: directives.retryAfter },
    },
  };
}

/**
 * The directives that govern the submission itself. With `poll_fail_times`,
 * `status`, `code` and `retry_after` describe the polls' failures, so the
 * submission goes through and the caller's poll back-off can be tested.
 */
export function submissionDirectives(directives: Directives): Directives {
  if (directives.pollFailTimes === undefined) return directives;
  const { status: _status, code: _code, retryAfter: _retryAfter, ...rest } = directives;
  return rest;
}

export function startVideoTask(plan: VideoTaskPlan, now = Date.now()): VideoTask {
  return { plan, submittedAt: now, failedPolls: 0 };
}

/** Where the task stands at `now`: running with a progress that rises with the time spent, or at its planned end. */
export function videoTaskPhase(task: VideoTask, now = Date.now()): VideoTaskPhase {
  const { generationMs, outcome } = task.plan;
  const fraction = generationMs <= 0 ? 1 : (now - task.submittedAt) / generationMs;
  if (fraction >= 1 && outcome !== 'never') return { phase: outcome };
  return { phase: 'running', progress: Math.min(MAX_RUNNING_PROGRESS, Math.floor(Math.max(0, fraction) * 100)) };
}

/** Counts one poll; the failure it must answer with while the planned poll failures last. */
export function takePollFailure(task: VideoTask): SimulatedFailure | undefined {
  if (task.failedPolls >= task.plan.pollFailures) return undefined;
  task.failedPolls++;
  return task.plan.pollFailure;
}

/**
 * The tasks of one simulated API, by id. Bounded: past `capacity` the oldest
 * task is forgotten (its polls then get the API's 404), so a long benchmark
 * cannot grow memory without limit.
 */
export class VideoTaskStore<Task> {
  private readonly tasks = new Map<string, Task>();

  constructor(private readonly capacity = 10_000) {}

  add(id: string, task: Task): void {
    this.tasks.set(id, task);
    if (this.tasks.size > this.capacity) this.forgetOldest();
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id);
  }

  delete(id: string): boolean {
    return this.tasks.delete(id);
  }

  private forgetOldest(): void {
    const oldest = this.tasks.keys().next();
    if (!oldest.done) this.tasks.delete(oldest.value);
  }
}
