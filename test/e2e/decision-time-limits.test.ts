import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { collectGarbage } from '../support/collect-garbage';
import { eventually } from '../support/eventually';
import { fetchUsageRecord, simulatorRequests, startTestGateway, type TestGateway } from '../support/test-gateway';

const MODEL = 'decision-gpt-4.1-mini';
const QUESTION = { is_refund: { type: 'noul', instructions: 'Does the customer ask for a refund?' } };
/** The limits made short so the test need not wait the real 10 s and 15 s; the deadlines are the same objects. */
const LIMIT_MS = 1_000;
/**
 * How late the 504 may come: the full collection forced while the gateway
 * waits can take seconds on a loaded machine (10.5 s seen with other test
 * files beside it), but a deadline that was collected never fires, and the
 * call then ends only at the whole decision's 25 s.
 */
const LATE_MS = 18_000;

/**
 * A silent upstream gets the decision's 504 when the evaluation's (or the
 * generation's) time runs out, even when a garbage collection runs while the
 * gateway waits: the deadline is held by its timer, never collected.
 */
describe('decision time limits', () => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;
  beforeAll(async () => {
    t = await startTestGateway({
      env: {
        GATEWAY_DECISIONS_ENABLED: 'true',
        GATEWAY_DECISIONS_QUESTION_GENERATION: 'true',
        GATEWAY_DECISIONS_EVALUATION_TIMEOUT_MS: String(LIMIT_MS),
        GATEWAY_DECISIONS_GENERATION_TIMEOUT_MS: String(LIMIT_MS),
        GATEWAY_RATE_LIMIT_REDIS_PREFIX: `decision-time-limits-${randomUUID()}`,
      },
    });
    key = await t.createKey({ name: 'decision-time-limits' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  /** Sends the decision, waits until the upstream has it, collects garbage, and returns the refusal and how long it took. */
  async function refusedWhileSilent(body: Record<string, unknown>, schema: string) {
    const seen = (await simulatorRequests(t)).requests.length;
    const started = Date.now();
    const refusal = client.post('/decisions', { body }).then(() => { throw new Error('expected a refusal'); }, (e) => e);
    await eventually(async () => ((await simulatorRequests(t)).requests.slice(seen).some((r) => JSON.stringify(r.body).includes(schema)) ? true : undefined), `the upstream call with ${schema}`);
    collectGarbage();
    const err = await refusal;
    return { err, took: Date.now() - started };
  }

  it('ends a silent evaluation with 504 upstream_timeout at its limit, recorded uncharged', async () => {
    const { err, took } = await refusedWhileSilent({ model: MODEL, state: 'Quiet [sim schema=decision_answers hang]', questions: QUESTION }, 'decision_answers');
    expect([err.status, err.error.code]).toEqual([504, 'upstream_timeout']);
    expect(took).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(took).toBeLessThan(LIMIT_MS + LATE_MS);
    const record = (await fetchUsageRecord(t, key, err.headers.get('x-svc-request-id'))).body;
    expect(record).toMatchObject({ billing: { amount_microusd: 0 }, decision: { stage: 'evaluation' } });
  }, 40_000);

  it('ends a silent question generation with 504 upstream_timeout at its limit', async () => {
    const { err, took } = await refusedWhileSilent({ model: MODEL, state: 'Quiet [sim schema=decision_questions hang]', question_generation: { enabled: true } }, 'decision_questions');
    expect([err.status, err.error.code]).toEqual([504, 'upstream_timeout']);
    expect(took).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(took).toBeLessThan(LIMIT_MS + LATE_MS);
  }, 40_000);
});
