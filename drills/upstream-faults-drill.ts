import { withClient } from '../bench/postgres';
import { joinUsageRecordParts } from '../src/billing/usage-record-figures';
import { progress } from '../bench/progress';
import type { Drill, DrillReport } from './drill';
import { chat, keyFor, metricOf, openStage, recordsOf, share, startGateway, type Answer } from './drill-kit';

/** One kind of upstream misbehaviour, asked of the simulator in the prompt, and what the client must see. */
interface Fault {
  name: string;
  model: string;
  stream: boolean;
  /** The simulator knobs; `{n}` becomes a number unique to the request, so `fail_times` counts per request. */
  knobs: string;
  /** What the client may get: an answer, or a refusal with one of these codes. */
  expect: 'answer' | string[];
  /** A fault that passes on a retry: once the retry budget is spent, the failure reaches the client with this code instead. */
  unlessBudgetSpent?: string;
}

/** What a stream that broke after it started ends with: an error event naming the cause. */
const STREAM_BROKE = ['upstream_stream_interrupted', 'upstream_stream_error', 'upstream_error'];
const FAULTS: Fault[] = [
  { name: '429 with a short Retry-After, then an answer (retried)', model: 'gpt-4.1-mini', stream: false, knobs: '[sim status=429 retry_after=1 fail_times=1]', expect: 'answer', unlessBudgetSpent: 'rate_limit_exceeded' },
  { name: '429 on the first route of an alias (fallback)', model: 'fast', stream: false, knobs: '[sim status=429 fail_times=1]', expect: 'answer' },
  { name: '503 once (retried after a jittered pause)', model: 'gpt-4.1-mini', stream: false, knobs: '[sim status=503 fail_times=1]', expect: 'answer', unlessBudgetSpent: 'upstream_overloaded' },
  { name: 'connection reset once (retried)', model: 'gpt-4.1-mini', stream: true, knobs: '[sim reset fail_times=1]', expect: 'answer', unlessBudgetSpent: 'upstream_unreachable' },
  { name: 'slow headers (1.5 s)', model: 'gpt-4.1-mini', stream: false, knobs: '[sim latency=1500]', expect: 'answer' },
  { name: '500 on every try', model: 'gpt-4.1-mini', stream: false, knobs: '[sim status=500]', expect: ['upstream_error'] },
  { name: '429 asking for 30 s', model: 'gpt-4.1-mini', stream: false, knobs: '[sim status=429 retry_after=30]', expect: ['rate_limit_exceeded', 'upstream_rate_limited'] },
  { name: 'stream cut after 2 chunks', model: 'gpt-4.1-mini', stream: true, knobs: '[sim cut_after=2 words=40]', expect: STREAM_BROKE },
  { name: 'malformed SSE after 2 chunks', model: 'claude-haiku-4-5', stream: true, knobs: '[sim garbage_after=2 words=40]', expect: STREAM_BROKE },
  { name: 'malformed SSE after 2 chunks (OpenAI)', model: 'gpt-4.1-mini', stream: true, knobs: '[sim garbage_after=2 words=40]', expect: STREAM_BROKE },
  { name: 'reset on every try', model: 'gemini-2.5-flash', stream: false, knobs: '[sim reset]', expect: ['upstream_unreachable', 'upstream_error'] },
];
const ROUNDS = Number(process.env.DRILL_FAULT_ROUNDS ?? 30);
const CONNECTIONS = 12;
/** Requests that keep failing on the OpenAI channel, to make it cool down. */
const STORM = 12;

/**
 * Upstream faults under load: resets, slow headers, streams cut mid-way,
 * malformed SSE, 429s with and without a usable Retry-After, 5xx bursts.
 * Each is mapped, retried or failed over per the route policy; the client
 * always gets a whole answer or a clear error (a refusal in the envelope, or
 * an error event in the stream), every call has exactly one usage record,
 * and failed calls are not charged. A burst of failures cools the OpenAI
 * channel: an alias then goes to its next route first.
 */
export const upstreamFaultsDrill: Drill = {
  id: 'upstream_faults',
  short: true,
  summary: `${FAULTS.length} kinds of upstream fault, ${ROUNDS} of each, ${CONNECTIONS} at a time; then a 503 storm on one channel`,
  async run(report: DrillReport) {
    const stage = await openStage();
    const gateway = await startGateway(stage, 'gateway');
    const key = await keyFor(stage, gateway, 'faults');
    const jobs = Array.from({ length: ROUNDS }, (_, round) => FAULTS.map((fault, i) => ({ fault, n: round * FAULTS.length + i }))).flat();
    const results: Array<{ fault: Fault; answer: Answer }> = [];
    let next = 0;
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (next < jobs.length) {
        const { fault, n } = jobs[next++]!;
        const answer = await chat(gateway.url, key, `fault drill ${n} ${fault.knobs}`, fault.stream, fault.model);
        results.push({ fault, answer });
      }
    }));
    progress(`upstream_faults: ${results.length} calls answered; the storm`);

    for (const fault of FAULTS) {
      const mine = results.filter((r) => r.fault === fault);
      const wrong = mine.filter(({ answer }) => !asExpected(fault, answer));
      const sample = wrong[0]?.answer;
      const answered = fault.unlessBudgetSpent ? `; ${mine.filter((r) => r.answer.status === 200).length} answered, the rest refused once the retry budget was spent` : '';
      report.check(fault.name, wrong.length ? `${wrong.length} of ${mine.length} wrong, e.g. ${JSON.stringify(sample)}` : `${mine.length} as expected${answered}`, wrong.length === 0);
    }
    const silent = results.filter(({ answer }) => answer.status === 200 && !answer.complete && !answer.code);
    report.check('answers cut short without an error', String(silent.length), silent.length === 0);
    const noAnswer = results.filter(({ answer }) => answer.status === 0 || answer.status === 500 || !answer.requestId);
    report.check('calls with no answer, a 500, or no request id', noAnswer.length ? `${noAnswer.length}: ${JSON.stringify(noAnswer[0]!.answer)}` : '0', noAnswer.length === 0);

    // A storm of failures on the OpenAI channel: it cools down, and the alias `fast` is served by its next route first.
    for (let i = 0; i < STORM; i++) await chat(gateway.url, key, `storm ${i} [sim status=503]`, false, 'gpt-4.1-mini');
    const after = await chat(gateway.url, key, 'after the storm', false, 'fast');
    const servedBy = after.requestId ? await servedByOf(stage.database.url, after.requestId) : undefined;
    report.check('after a 503 storm on OpenAI, `fast` is served by its next route on the first attempt', JSON.stringify(servedBy ?? null), servedBy?.provider !== 'openai' && servedBy?.attempts === 1);

    const retries = await metricOf(stage, gateway.url, 'gateway_upstream_retries_total');
    const coolDowns = await metricOf(stage, gateway.url, 'gateway_channel_cool_downs_total');
    const calls = results.length + STORM + 1;
    // Each provider channel has its own budget (a fifth of its calls, plus ten saved): the faults reach OpenAI, Anthropic and Gemini.
    const channels = 3;
    report.check('retries within the budgets (a fifth of calls, plus ten per provider channel)', `${retries} retries for ${calls} calls on ${channels} channels`, retries > 0 && retries <= calls / 5 + 10 * channels);
    report.check('channel cool-downs', String(coolDowns), coolDowns >= 1);

    const stopped = await gateway.handle.stop(30_000);
    report.check('gateway still up until stopped, then a clean exit', `exit code ${stopped.code}`, stopped.code === 0);
    const ids = [...results.map((r) => r.answer.requestId), after.requestId].filter((id): id is string => Boolean(id));
    const records = await recordsOf(stage.database.url, ids);
    report.check('usage records: one per call, none twice', `${share(records.distinct, ids.length)} (${records.found} rows)`, records.distinct === ids.length && records.found === ids.length);
    // A stream that broke after it started is billed for what the upstream produced; a call that never got an answer is not billed.
    const failedWhole = results.filter((r) => !r.fault.stream && r.answer.status !== 200 && r.answer.requestId).map((r) => r.answer.requestId!);
    const charged = await chargedFailures(stage.database.url, failedWhole);
    report.check('refused calls (no answer) charged', `${charged} of ${failedWhole.length}`, charged === 0);
  },
};

function asExpected(fault: Fault, answer: Answer): boolean {
  if (fault.expect === 'answer') return (answer.status === 200 && answer.complete) || (fault.unlessBudgetSpent !== undefined && answer.code === fault.unlessBudgetSpent);
  return answer.status !== 200 || !answer.complete ? fault.expect.includes(answer.code ?? '') : false;
}

function servedByOf(databaseUrl: string, id: string): Promise<{ provider: string; attempts: number } | undefined> {
  // The record is written before the answer goes out.
  // Internal, so not in the public record: read from the row's shape and figures as the gateway stores them.
  return withClient(databaseUrl, async (db) => {
    const { rows } = await db.query<{ skeleton: string; figures: unknown[] }>(
      'SELECT s.skeleton, r.figures FROM usage_records r JOIN usage_shapes s ON s.id = r.shape_id WHERE r.id = $1',
      [id],
    );
    const row = rows[0];
    return row ? (joinUsageRecordParts(JSON.parse(row.skeleton), row.figures).served_by as { provider: string; attempts: number } | null) ?? undefined : undefined;
  });
}

/** Records of failed calls (not 200) that charged anything. */
function chargedFailures(databaseUrl: string, ids: string[]): Promise<number> {
  return withClient(databaseUrl, async (db) => {
    const rows = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM usage_records WHERE id = ANY($1) AND status_code <> 200 AND amount_microusd > 0', [ids]);
    return Number(rows.rows[0]?.n ?? 0);
  });
}
