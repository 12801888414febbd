import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { simulatorRequests, startTestGateway, type TestGateway } from '../support/test-gateway';

const MODEL = 'decision-gpt-4.1-mini';

/**
 * Question ids and option ids are unique: a body that writes one twice (which
 * a plain JSON.parse would quietly merge, keeping the last) is refused with
 * 400 `invalid_question` naming the id, before any upstream call.
 */
describe('decision ids written twice', () => {
  let t: TestGateway;
  let key: string;
  beforeAll(async () => {
    t = await startTestGateway({ env: { GATEWAY_DECISIONS_ENABLED: 'true', GATEWAY_RATE_LIMIT_REDIS_PREFIX: `decision-unique-ids-${randomUUID()}` } });
    key = await t.createKey({ name: 'decision-unique-ids' });
  });
  afterAll(() => t?.close());

  /** The body as written: the SDK's JSON.stringify could never repeat a key. */
  async function decideRaw(body: string) {
    const res = await fetch(`${t.baseURL}/decisions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
    return { status: res.status, body: (await res.json()) as any };
  }

  it.each([
    ['a question id', '{"a": {"type": "noul", "instructions": "Refund?"}, "a": {"type": "noul", "instructions": "Angry?"}}', 'questions.a', '"a"'],
    ['an option id', '{"topic": {"type": "choice", "instructions": "Topic?", "criteria": {"billing": "Payments", "other": "Else", "billing": "Invoices"}}}', 'questions.topic.criteria.billing', '"billing"'],
  ])('refuses %s written twice, naming it, before any upstream call', async (_what, questions, param, named) => {
    const before = (await simulatorRequests(t)).requests.length;
    const res = await decideRaw(`{"model": "${MODEL}", "state": "I was charged twice.", "questions": ${questions}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_question', param });
    expect(res.body.error.message).toContain(named);
    expect((await simulatorRequests(t)).requests.length).toBe(before);
  });

  it('judges the same questions with distinct ids, through the SDK', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    const decision = await client.post<{ answers: Record<string, unknown> }>('/decisions', {
      body: { model: MODEL, state: 'I was charged twice.', questions: { a: { type: 'noul', instructions: 'Refund?' }, b: { type: 'noul', instructions: 'Angry?' } } },
    });
    expect(Object.keys(decision.answers).sort()).toEqual(['a', 'b']);
  });
});
