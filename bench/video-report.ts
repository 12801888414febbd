import { against, type BenchContext } from './context';
import type { TargetResult } from './load';
import { errorsCell, errorsCheck, summaryJson } from './phases';
import { round, summarize } from './stats';
import { fmt } from './table';
import type { PollStats, TaskProgress } from './video-db';
import type { Polling } from './video-gateways';

/** What the video phase measured, and its rows, failures and JSON. */

/** Poll counters of instances A and B. */
export type PollCounts = [number, number];

export interface VideoRun {
  tasks: number;
  generationMs: number;
  polling: Polling;
  /** Polls per task when none is late. */
  expected: number;
  /** From a submission to the poll that should find its video done, ms. */
  dueAfterMs: number;
  /** The poller's pause between rounds when nothing is due, ms. */
  pollerIdleMs: number;
  submitA: TargetResult;
  submitB: TargetResult;
  submitElapsedS: number;
  /** Gateway CPU (A+B) while submitting, ms. */
  submitCpuMs: number;
  pollsBefore: PollCounts;
  pollsAtWindowStart: PollCounts;
  pollsAfter: PollCounts;
  /** Requests the simulator received during the phase, submissions included. */
  simulatorReceived: number;
  /** The polling window: from the last submission to the last completion. */
  windowMs: number;
  gatewayCpuMs: number;
  postgresCpuMs: number;
  redisCpuMs: number;
  /** Usage records of tasks by billing state, after the submissions and at the end. */
  billingAfterSubmit: Record<string, number>;
  billingAtEnd: Record<string, number>;
  progress: TaskProgress;
  allFinishedInTime: boolean;
  stats: PollStats;
}

/** Polls beyond tasks x expected that are still not a sign of double polling (retried failures). */
const SLACK = 1.02;

const billed = (s: Record<string, number>) => (s.held ?? 0) + (s.settled ?? 0);

export function reportVideoRun(ctx: BenchContext, id: string, r: VideoRun): void {
  const { report } = ctx;
  const accepted = r.submitA.ok + r.submitB.ok;
  const submittedCount = r.submitA.requests + r.submitB.requests;
  const pollsA = r.pollsAfter[0] - r.pollsBefore[0];
  const pollsB = r.pollsAfter[1] - r.pollsBefore[1];
  const polls = pollsA + pollsB;
  const pollsWhileSubmitting = r.pollsAtWindowStart[0] + r.pollsAtWindowStart[1] - r.pollsBefore[0] - r.pollsBefore[1];
  const windowPolls = polls - pollsWhileSubmitting;
  const simulatorPolls = r.simulatorReceived - accepted;
  const lostPolls = polls - r.stats.polls;
  const ratio = polls / (accepted * r.expected);
  const lagAfterDueMs = r.stats.lastSubmittedToLastCompletedMs - r.dueAfterMs;
  const lateness = summarize(r.stats.completionMs.map((ms) => ms - r.dueAfterMs));
  const perPoll = (ms: number) => (windowPolls ? ms / windowPolls : Number.NaN);
  const lagLimitMs = r.polling.interval_ms + r.pollerIdleMs;
  const heldOk = billed(r.billingAfterSubmit) === accepted;
  const settledOk = (r.billingAtEnd.settled ?? 0) === accepted;

  if (!r.allFinishedInTime) report.fail(`video tasks: ${r.progress.finished} of ${accepted} finished in time`);
  if (r.progress.completed !== accepted) report.fail(`video tasks: ${r.progress.completed} of ${accepted} completed (${r.progress.finished - r.progress.completed} failed or expired)`);
  if (!heldOk) report.fail(`video usage records after the submissions: ${JSON.stringify(r.billingAfterSubmit)}, expected ${accepted} held (or already settled)`);
  if (!settledOk) report.fail(`video usage records at the end: ${JSON.stringify(r.billingAtEnd)}, expected ${accepted} settled`);
  if (simulatorPolls !== polls) report.fail(`video polls: the gateways counted ${polls}, the simulator received ${simulatorPolls}`);

  const p = r.polling;
  report.section(`${fmt.int(r.tasks)} pending video tasks, two instances (one PostgreSQL, one Redis; ${r.generationMs / 1000} s generation; first poll after ${p.first_poll_after_ms / 1000} s, then every ${p.interval_ms / 1000} s)`);
  report.row('tasks submitted (A / B)', `${fmt.int(submittedCount)} (${fmt.int(r.submitA.requests)} / ${fmt.int(r.submitB.requests)})`);
  report.row(`submission: rate / gateway CPU per task (${fmt.int(pollsWhileSubmitting)} polls incl.)`, `${fmt.rate(submittedCount / r.submitElapsedS)} / ${fmt.ms(r.submitCpuMs / submittedCount, 2)}`);
  report.row('submission errors (non-2xx + failed)', `${errorsCell(r.submitA)} / ${errorsCell(r.submitB)}`, '', '', '0', errorsCheck(r.submitA, r.submitB));
  report.row('upstream polls (gateway metrics A+B; direct: simulator)', fmt.int(polls), fmt.int(simulatorPolls), '', 'equal', simulatorPolls === polls ? 'ok' : 'FAIL');
  report.row('polls by instance A / B', `${fmt.int(pollsA)} / ${fmt.int(pollsB)} (${fmt.pct(pollsA, polls, 0)} / ${fmt.pct(pollsB, polls, 0)})`);
  report.row('polls per task: mean (min-max)', `${(polls / accepted).toFixed(2)} (${r.stats.minPerTask}-${r.stats.maxPerTask})`, '', '', `<= ${r.expected} expected`, r.stats.overExpected === 0 ? 'ok' : `${r.stats.overExpected} over`);
  report.row('polls / (tasks x expected): duplicate polling', ratio.toFixed(3), '', '', `<= ${SLACK.toFixed(2)}`, against(ratio, SLACK));
  report.row('polls that lost the compare-and-set (metrics - DB poll_count)', fmt.int(lostPolls), '', '', '0', lostPolls === 0 ? 'ok' : 'DUPLICATES');
  report.row('all done after the last expected due time', fmt.seconds(lagAfterDueMs), '', '', `< ${lagLimitMs / 1000} s`, against(lagAfterDueMs, lagLimitMs, true));
  report.row('per task, done after its due time p50 / p99', fmt.pair(lateness.p50, lateness.p99, 0));
  report.row('polling window (after the submissions)', `${fmt.seconds(r.windowMs, 1)}, ${fmt.int(windowPolls)} polls`);
  report.row('gateway CPU per task poll (A+B)', fmt.ms(perPoll(r.gatewayCpuMs), 3));
  report.row('PostgreSQL / Redis CPU per task poll (whole servers)', `${fmt.ms(perPoll(r.postgresCpuMs), 3)} / ${fmt.ms(perPoll(r.redisCpuMs), 3)}`);
  const alreadySettled = r.billingAfterSubmit.settled ? ` (+${fmt.int(r.billingAfterSubmit.settled)} done already)` : '';
  report.row('usage records: held after submit / settled at the end', `${fmt.int(r.billingAfterSubmit.held ?? 0)}${alreadySettled} / ${fmt.int(r.billingAtEnd.settled ?? 0)}`, '', '', `${fmt.int(accepted)} / ${fmt.int(accepted)}`, heldOk && settledOk ? 'ok' : 'FAIL');

  report.json[id] = {
    tasks: r.tasks, accepted, generation_ms: r.generationMs, polling: p, expected_polls_per_task: r.expected, due_after_ms: r.dueAfterMs,
    submissions: { a: r.submitA.requests, b: r.submitB.requests, elapsed_s: round(r.submitElapsedS, 2), gateway_cpu_ms_per_task: round(r.submitCpuMs / submittedCount, 3), polls_meanwhile: pollsWhileSubmitting },
    polls: {
      total: polls, a: pollsA, b: pollsB, simulator: simulatorPolls, db_poll_count: r.stats.polls, lost_compare_and_set: lostPolls,
      per_task_mean: round(polls / accepted, 3), per_task_min: r.stats.minPerTask, per_task_max: r.stats.maxPerTask, ratio_to_expected: round(ratio, 4),
    },
    all_done_after_last_due_ms: round(lagAfterDueMs, 1),
    done_after_due_ms: summaryJson(lateness),
    polling_window: {
      ms: Math.round(r.windowMs), polls: windowPolls, gateway_cpu_ms: round(r.gatewayCpuMs, 1), gateway_cpu_ms_per_poll: round(perPoll(r.gatewayCpuMs), 4),
      postgres_cpu_ms: round(r.postgresCpuMs, 1), redis_cpu_ms: round(r.redisCpuMs, 1),
    },
    usage_records: { after_submit: r.billingAfterSubmit, at_end: r.billingAtEnd },
  };
}
