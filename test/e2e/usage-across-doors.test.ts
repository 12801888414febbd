import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { geminiClient } from '../support/gemini-client';
import { startTestGateway, TEST_DATABASES, type TestGateway, usageRecordOf } from '../support/test-gateway';

/**
 * One upstream answer, four doors: the same recorded bytes (an Anthropic
 * answer with thinking, a Gemini answer with thoughts) replayed to a call
 * through chat completions, Responses, Messages and the Gemini API give the
 * same usage record and amount, each door's answer reporting the usage in
 * its own dialect's meaning: OpenAI's `prompt_tokens` and Responses'
 * `input_tokens` are the whole prompt; Anthropic's `input_tokens` leaves
 * out cache reads and writes; Gemini's `candidatesTokenCount` leaves out
 * `thoughtsTokenCount`.
 */
describe.each(TEST_DATABASES)('the same upstream answer through every door (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'doors' });
    openai = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  const recordOf = (requestId: string) =>
    usageRecordOf(t, key, requestId);
  const billed = (record: any) => ({ usage: record.usage, amount: record.billing.amount_microusd, lineItems: record.billing.line_items });

  interface DoorAnswer {
    door: string;
    requestId: string;
    /** The answer's usage as the whole prompt and the whole completion, read in its dialect's meaning. */
    prompt: number;
    completion: number;
  }

  async function throughEveryDoor(model: string, prompt: string): Promise<DoorAnswer[]> {
    const chat = await openai.chat.completions.create({ model, max_tokens: 2048, messages: [{ role: 'user', content: prompt }] }).withResponse();
    const responses = await openai.responses.create({ model, max_output_tokens: 2048, input: prompt, store: false }).withResponse();
    const messages = await anthropic.messages.create({ model, max_tokens: 2048, messages: [{ role: 'user', content: prompt }] }).withResponse();
    const gemini = await geminiClient(key, t.url).models.generateContent({ model, contents: prompt, config: { maxOutputTokens: 2048 } });
    const m = messages.data.usage;
    const g = gemini.usageMetadata!;
    return [
      { door: '/v1/chat/completions', requestId: chat.response.headers.get('x-svc-request-id')!, prompt: chat.data.usage!.prompt_tokens, completion: chat.data.usage!.completion_tokens },
      { door: '/v1/responses', requestId: responses.response.headers.get('x-svc-request-id')!, prompt: responses.data.usage!.input_tokens, completion: responses.data.usage!.output_tokens },
      {
        door: '/v1/messages', requestId: messages.response.headers.get('x-svc-request-id')!,
        prompt: m.input_tokens + (m.cache_read_input_tokens ?? 0) + (m.cache_creation_input_tokens ?? 0), completion: m.output_tokens,
      },
      { door: `/v1beta/models/{model}:generateContent`, requestId: gemini.responseId!, prompt: g.promptTokenCount!, completion: (g.candidatesTokenCount ?? 0) + (g.thoughtsTokenCount ?? 0) },
    ];
  }

  it.each([
    ['an Anthropic answer with thinking', 'claude-sonnet-4-6', 'thinking', { prompt: 69, completion: 33 }],
    ['a Gemini answer with thoughts', 'gemini-2.5-flash', 'text', { prompt: 9, completion: 28 + 244 }],
  ])('%s bills the same and reads the same in every dialect', async (_name, model, recording, expected) => {
    const answers = await throughEveryDoor(model, `Hello [sim replay=${recording}]`);
    const records = await Promise.all(answers.map((a) => recordOf(a.requestId)));
    for (const [i, answer] of answers.entries()) {
      expect({ door: answer.door, prompt: answer.prompt, completion: answer.completion }).toEqual({ door: answer.door, ...expected });
      expect(records[i].endpoint).toBe(answer.door);
      expect(billed(records[i])).toEqual(billed(records[0]));
    }
    expect(records[0].usage).toMatchObject({ prompt_tokens: expected.prompt, completion_tokens: expected.completion });
    expect(records[0].billing.amount_microusd).toBeGreaterThan(0);
  });
});
