import type { Client } from 'pg';

/** What the video phase reads from the shared database: task states, poll counts, times, held charges. */

export interface TaskProgress {
  total: number;
  finished: number;
  completed: number;
}

export async function taskProgress(client: Client): Promise<TaskProgress> {
  const { rows } = await client.query<TaskProgress>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE status IN ('completed', 'failed', 'expired'))::int AS finished,
            count(*) FILTER (WHERE status = 'completed')::int AS completed
       FROM video_tasks`,
  );
  return rows[0]!;
}

/** Usage records of tasks by billing state (`held`, `settled`, `refunded`). */
export async function taskBilling(client: Client): Promise<Record<string, number>> {
  const { rows } = await client.query<{ state: string; n: number }>(
    'SELECT billing_state AS state, count(*)::int AS n FROM usage_records WHERE task_id IS NOT NULL GROUP BY 1 ORDER BY 1',
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

export interface PollStats {
  /** Sum of `poll_count`: the polls whose result was written (a poll that lost its compare-and-set is not counted). */
  polls: number;
  minPerTask: number;
  maxPerTask: number;
  /** Tasks polled more often than expected. */
  overExpected: number;
  /** Milliseconds from submission to completion, one per completed task. */
  completionMs: number[];
  /** From the last submission to the last completion, ms. */
  lastSubmittedToLastCompletedMs: number;
}

export async function pollStats(client: Client, expectedPerTask: number): Promise<PollStats> {
  const { rows } = await client.query<{ polls: number; min: number; max: number; over: number; span_ms: number }>(
    `SELECT coalesce(sum(poll_count), 0)::int AS polls, coalesce(min(poll_count), 0)::int AS min, coalesce(max(poll_count), 0)::int AS max,
            count(*) FILTER (WHERE poll_count > $1)::int AS over,
            (extract(epoch FROM max(completed_at) - max(created_at)) * 1000)::float8 AS span_ms
       FROM video_tasks`,
    [expectedPerTask],
  );
  const times = await client.query<{ ms: number }>(
    `SELECT (extract(epoch FROM completed_at - created_at) * 1000)::float8 AS ms FROM video_tasks WHERE status = 'completed'`,
  );
  const r = rows[0]!;
  return {
    polls: r.polls,
    minPerTask: r.min,
    maxPerTask: r.max,
    overExpected: r.over,
    completionMs: times.rows.map((t) => t.ms),
    lastSubmittedToLastCompletedMs: r.span_ms ?? Number.NaN,
  };
}

/** Polls `read` every `everyMs` until `done` says so or `timeoutMs` passes; the last value either way. */
export async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, everyMs = 200): Promise<{ value: T; met: boolean }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return { value, met: true };
    if (performance.now() >= deadline) return { value, met: false };
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
