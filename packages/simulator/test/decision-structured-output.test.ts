import { errorBody, postJson, ssePayloads, useSimulator } from './simulator-test-kit';

/**
 * The simulator serving the gateway's decisions: token log-probabilities on
 * Chat Completions, enum-aware alternatives in structured answers, coherent
 * `decision_answers`, valid (or, on request, unusable) `decision_questions`,
 * and the knobs that exercise the gateway's fallbacks.
 */

const simulator = useSimulator();

interface TopLogprob {
  token: string;
  logprob: number;
  bytes: number[];
}
interface TokenLogprob extends TopLogprob {
  top_logprobs: TopLogprob[];
}
interface Completion {
  choices: { message: { content: string }; logprobs: { content: TokenLogprob[]; refusal: null } | null; finish_reason: string }[];
}

type UserContent = string | { type: string; text?: string; image_url?: { url: string } }[];

async function chat(content: UserContent, extra: object = {}): Promise<Completion> {
  const response = await postJson(simulator.current, '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content }], ...extra });
  expect(response.status).toBe(200);
  return (await response.json()) as Completion;
}

const NUMBER = { type: 'number', minimum: 0, maximum: 1 };

function jsonSchemaFormat(name: string, schema: object): object {
  return { response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } } };
}

/** The `decision_answers` schema as the gateway builds it. */
function answersSchema(questions: { [id: string]: { type: 'noul' } | { type: 'choice'; options: string[] } | { type: 'score'; levels: number } }): object {
  const properties = Object.fromEntries(
    Object.entries(questions).map(([id, question]) => {
      switch (question.type) {
        case 'noul':
          return [id, strictObject({ answer: { type: 'string', enum: ['yes', 'no'] }, probability: NUMBER, confidence: NUMBER })];
        case 'choice':
          return [id, strictObject({ option: { type: 'string', enum: question.options }, probabilities: strictObject(Object.fromEntries(question.options.map((option) => [option, NUMBER]))), confidence: NUMBER })];
        case 'score': {
          const levels = Array.from({ length: question.levels }, (_, index) => String(index + 1));
          const distribution = { type: 'array', minItems: question.levels, maxItems: question.levels, items: NUMBER };
          return [id, strictObject({ level: { type: 'string', enum: levels }, distribution, confidence: NUMBER })];
        }
      }
    }),
  );
  return strictObject(properties);
}

function strictObject(properties: object): object {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

function questionsSchema(maxItems: number): object {
  const option = strictObject({ id: { type: 'string' }, description: { type: 'string' } });
  const question = strictObject({
    id: { type: 'string' },
    type: { type: 'string', enum: ['noul', 'choice', 'score'] },
    instructions: { type: 'string' },
    options: { type: 'array', items: option },
    levels: { type: 'array', items: { type: 'string' } },
  });
  return strictObject({ questions: { type: 'array', minItems: 1, maxItems, items: question } });
}

/** The token covering the character at `offset` of the content. */
function tokenAt(tokens: TokenLogprob[], offset: number): TokenLogprob {
  let start = 0;
  for (const token of tokens) {
    start += token.token.length;
    if (offset < start) return token;
  }
  throw new Error(`no token at ${offset}`);
}

/** The probability each alternative at a value's token gives, keyed by the value (the token without its opening quote). */
function enumOddsAt(completion: Completion, valueOffset: number): Map<string, number> {
  const token = tokenAt(completion.choices[0]!.logprobs!.content, valueOffset);
  return new Map(token.top_logprobs.map((alternative) => [alternative.token.slice(1), Math.exp(alternative.logprob)]));
}

const utf8 = (text: string) => [...Buffer.from(text, 'utf8')];
const sum = (numbers: number[]) => numbers.reduce((total, value) => total + value, 0);

describe('logprobs on Chat Completions', () => {
  it('are null unless asked for', async () => {
    expect((await chat('Plain question')).choices[0]!.logprobs).toBeNull();
  });

  it('list every token in OpenAI’s shape, joining back to the content, each with its top alternatives', async () => {
    const completion = await chat('Tell me something', { logprobs: true, top_logprobs: 3 });
    const { message, logprobs } = completion.choices[0]!;

    expect(Object.keys(logprobs!)).toEqual(['content', 'refusal']);
    expect(logprobs!.refusal).toBeNull();
    expect(logprobs!.content.map((token) => token.token).join('')).toBe(message.content);
    for (const token of logprobs!.content) {
      expect(Object.keys(token)).toEqual(['token', 'logprob', 'bytes', 'top_logprobs']);
      expect(token.bytes).toEqual(utf8(token.token));
      expect(token.logprob).toBeLessThan(0);
      expect(token.top_logprobs).toHaveLength(3);
      expect(token.top_logprobs[0]).toEqual({ token: token.token, logprob: token.logprob, bytes: token.bytes });
      for (const alternative of token.top_logprobs) {
        expect(Object.keys(alternative)).toEqual(['token', 'logprob', 'bytes']);
        expect(alternative.bytes).toEqual(utf8(alternative.token));
      }
      expect(new Set(token.top_logprobs.map((alternative) => alternative.token)).size).toBe(3);
      const logprobs = token.top_logprobs.map((alternative) => alternative.logprob);
      expect([...logprobs].sort((a, b) => b - a)).toEqual(logprobs);
      expect(sum(logprobs.map(Math.exp))).toBeLessThanOrEqual(1);
    }
  });

  it('list no alternatives without top_logprobs, and are the same for the same prompt', async () => {
    const first = await chat('Same prompt twice', { logprobs: true });
    const second = await chat('Same prompt twice', { logprobs: true });

    expect(first.choices[0]!.logprobs!.content.every((token) => token.top_logprobs.length === 0)).toBe(true);
    expect(second.choices[0]!.logprobs).toEqual(first.choices[0]!.logprobs);
  });

  it('cover a cut answer exactly', async () => {
    const completion = await chat('Cut me short', { logprobs: true, max_tokens: 5, ...jsonSchemaFormat('cut', answersSchema({ q: { type: 'noul' } })) });
    const { message, logprobs, finish_reason } = completion.choices[0]!;

    expect(finish_reason).toBe('length');
    expect(logprobs!.content.map((token) => token.token).join('')).toBe(message.content);
  });

  it('stream with the content: each chunk carries the tokens of its text', async () => {
    const body = { model: 'gpt-4o', stream: true, logprobs: true, top_logprobs: 2, messages: [{ role: 'user', content: 'Stream it [sim chunk=10]' }] };
    const payloads = ssePayloads(await (await postJson(simulator.current, '/v1/chat/completions', body)).text());
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload) as { choices: { delta: { content?: string }; logprobs: { content: TokenLogprob[] } | null }[] });
    const contentChunks = chunks.filter((chunk) => typeof chunk.choices[0]?.delta.content === 'string' && chunk.choices[0].delta.content !== '');

    expect(contentChunks.length).toBeGreaterThan(1);
    for (const chunk of contentChunks) {
      const choice = chunk.choices[0]!;
      expect(choice.logprobs!.content.map((token) => token.token).join('')).toBe(choice.delta.content);
      expect(choice.logprobs!.content.every((token) => token.top_logprobs.length === 2)).toBe(true);
    }
    const whole = await chat('Stream it [sim chunk=10]', { logprobs: true, top_logprobs: 2 });
    expect(contentChunks.map((chunk) => chunk.choices[0]!.delta.content).join('')).toBe(whole.choices[0]!.message.content);
  });

  it('refuses top_logprobs without logprobs: true, and past 20, as OpenAI does', async () => {
    const post = (extra: object) => postJson(simulator.current, '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], ...extra });

    const without = await post({ top_logprobs: 2 });
    expect(without.status).toBe(400);
    expect((await errorBody(without)).error).toEqual({
      message: "The 'top_logprobs' parameter is only allowed when 'logprobs' is enabled.",
      type: 'invalid_request_error',
      param: 'top_logprobs',
      code: null,
    });
    expect((await post({ logprobs: false, top_logprobs: 2 })).status).toBe(400);
    const tooMany = await post({ logprobs: true, top_logprobs: 21 });
    expect(tooMany.status).toBe(400);
    expect((await errorBody(tooMany)).error).toMatchObject({ type: 'invalid_request_error', param: 'top_logprobs', code: 'integer_above_max_value' });
  });

  it('no_logprobs answers null even when asked, as an upstream without them does', async () => {
    const completion = await chat('No odds here [sim no_logprobs]', { logprobs: true, top_logprobs: 5, ...jsonSchemaFormat('decision_answers', answersSchema({ q: { type: 'noul' } })) });
    expect(completion.choices[0]!.logprobs).toBeNull();
    expect(JSON.parse(completion.choices[0]!.message.content)).toEqual({ q: { answer: expect.any(String), probability: expect.any(Number), confidence: expect.any(Number) } });
  });
});

describe('enum-aware alternatives in structured answers', () => {
  const moodSchema = strictObject({ mood: { type: 'string', enum: ['calme', 'café', 'thé', 'eau'] }, note: { type: 'string' } });

  it('give an enum value its own token, the opening quote glued to it, with the other values as alternatives', async () => {
    const completion = await chat('How is the mood?', { logprobs: true, top_logprobs: 10, ...jsonSchemaFormat('mood', moodSchema) });
    const content = completion.choices[0]!.message.content;
    const { mood } = JSON.parse(content) as { mood: string };
    const offset = content.indexOf(`"mood":`) + `"mood":`.length;
    const token = tokenAt(completion.choices[0]!.logprobs!.content, offset);

    expect(token.token).toBe(`"${mood}`);
    expect(token.bytes).toEqual(utf8(`"${mood}`));
    expect(token.top_logprobs.map((alternative) => alternative.token).sort()).toEqual(['"calme', '"café', '"eau', '"thé'].sort());
    expect(token.top_logprobs.every((alternative) => alternative.bytes.join() === utf8(alternative.token).join())).toBe(true);
    expect(token.top_logprobs[0]!.token).toBe(`"${mood}`);
    const probabilities = token.top_logprobs.map((alternative) => Math.exp(alternative.logprob));
    expect(probabilities[0]).toBeGreaterThanOrEqual(0.55 - 1e-9);
    expect(probabilities[0]).toBeLessThanOrEqual(0.95 + 1e-9);
    expect([...probabilities].sort((a, b) => b - a)).toEqual(probabilities);
    expect(sum(probabilities)).toBeCloseTo(1, 9);
  });

  it('list only as many values as top_logprobs asks', async () => {
    const completion = await chat('How is the mood?', { logprobs: true, top_logprobs: 2, ...jsonSchemaFormat('mood', moodSchema) });
    const content = completion.choices[0]!.message.content;
    const token = tokenAt(completion.choices[0]!.logprobs!.content, content.indexOf(`"mood":`) + `"mood":`.length);
    expect(token.top_logprobs).toHaveLength(2);
  });
});

describe('decision_answers', () => {
  const schema = answersSchema({
    relevant: { type: 'noul' },
    'next.step': { type: 'choice', options: ['wait', 'act_now', 'ask-help'] },
    severity: { type: 'score', levels: 7 },
  });
  const prompts = ['The kitchen is on fire', 'The customer asks for a refund', 'Two trains leave the station', 'Nothing happened today', 'The budget is exhausted'];

  interface Answers {
    relevant: { answer: string; probability: number; confidence: number };
    'next.step': { option: string; probabilities: { [option: string]: number }; confidence: number };
    severity: { level: string; distribution: number[]; confidence: number };
  }

  async function answer(prompt: UserContent): Promise<{ completion: Completion; answers: Answers }> {
    const completion = await chat(prompt, { logprobs: true, top_logprobs: 20, ...jsonSchemaFormat('decision_answers', schema) });
    return { completion, answers: JSON.parse(completion.choices[0]!.message.content) as Answers };
  }

  /** Where a question's picked value starts (after its opening quote). */
  function valueOffset(content: string, questionId: string, field: string): number {
    const at = content.indexOf(`${JSON.stringify(questionId)}:{`);
    return content.indexOf(`"${field}":"`, at) + `"${field}":"`.length;
  }

  it('keeps to the schema: every question, exactly its fields, in order', async () => {
    const { answers } = await answer(prompts[0]!);
    expect(Object.keys(answers)).toEqual(['relevant', 'next.step', 'severity']);
    expect(Object.keys(answers.relevant)).toEqual(['answer', 'probability', 'confidence']);
    expect(Object.keys(answers['next.step'])).toEqual(['option', 'probabilities', 'confidence']);
    expect(Object.keys(answers['next.step'].probabilities)).toEqual(['wait', 'act_now', 'ask-help']);
    expect(Object.keys(answers.severity)).toEqual(['level', 'distribution', 'confidence']);
  });

  it.each(prompts)('noul: probability is P(yes), confidence the answer’s, and the logprobs agree (%s)', async (prompt) => {
    const { completion, answers } = await answer(prompt);
    const { answer: picked, probability, confidence } = answers.relevant;

    expect(['yes', 'no']).toContain(picked);
    expect(probability > 0.5).toBe(picked === 'yes');
    expect(confidence).toBeCloseTo(picked === 'yes' ? probability : 1 - probability, 9);
    const odds = enumOddsAt(completion, valueOffset(completion.choices[0]!.message.content, 'relevant', 'answer'));
    expect([...odds.keys()]).toEqual([picked, picked === 'yes' ? 'no' : 'yes']);
    expect(odds.get('yes')).toBeCloseTo(probability, 9);
    expect(odds.get('no')).toBeCloseTo(1 - probability, 9);
  });

  it.each(prompts)('choice: probabilities add up to 1, the option highest, and the logprobs agree (%s)', async (prompt) => {
    const { completion, answers } = await answer(prompt);
    const { option, probabilities, confidence } = answers['next.step'];

    expect(sum(Object.values(probabilities))).toBeCloseTo(1, 9);
    expect(Math.max(...Object.values(probabilities))).toBe(probabilities[option]);
    expect(Object.values(probabilities).filter((value) => value === probabilities[option])).toHaveLength(1);
    expect(confidence).toBe(probabilities[option]);
    const odds = enumOddsAt(completion, valueOffset(completion.choices[0]!.message.content, 'next.step', 'option'));
    expect([...odds.keys()][0]).toBe(option);
    expect([...odds.keys()].sort()).toEqual(Object.keys(probabilities).sort());
    for (const [value, probability] of odds) expect(probability).toBeCloseTo(probabilities[value]!, 9);
  });

  it.each(prompts)('score: the distribution adds up to 1, the level highest, and the logprobs agree (%s)', async (prompt) => {
    const { completion, answers } = await answer(prompt);
    const { level, distribution, confidence } = answers.severity;
    const picked = Number(level) - 1;

    expect(distribution).toHaveLength(7);
    expect(sum(distribution)).toBeCloseTo(1, 9);
    expect(distribution.every((value, index) => index === picked || value < distribution[picked]!)).toBe(true);
    expect(confidence).toBe(distribution[picked]);
    const odds = enumOddsAt(completion, valueOffset(completion.choices[0]!.message.content, 'severity', 'level'));
    expect([...odds.keys()][0]).toBe(level);
    expect(odds.size).toBe(7);
    for (const [value, probability] of odds) expect(probability).toBeCloseTo(distribution[Number(value) - 1]!, 9);
  });

  it('picks per question and per prompt, the same again for the same prompt', async () => {
    const runs = await Promise.all(prompts.map(async (prompt) => (await answer(prompt)).answers));
    expect(new Set(runs.map((run) => run.relevant.answer)).size + new Set(runs.map((run) => run['next.step'].option)).size).toBeGreaterThan(2);
    expect((await answer(prompts[1]!)).answers).toEqual(runs[1]);
  });

  it('leans on the state when the gateway’s evaluation prompt shows the questions: yes, the option and the level that share its words', async () => {
    const judged = answersSchema({ fire: { type: 'noul' }, room: { type: 'choice', options: ['garden', 'kitchen', 'garage'] }, alarm: { type: 'score', levels: 3 } });
    const prompt = [
      'STATE (text):',
      'Smoke fills the hallway: the kitchen is on fire.',
      '',
      'QUESTIONS:',
      '[fire] noul',
      'instructions: Is there a fire?',
      '',
      '[room] choice',
      'instructions: Where is the problem?',
      'options (option id -> description, JSON): {"garden":"Outside, among the plants","kitchen":"In the kitchen","garage":"Where the car is parked"}',
      '',
      '[alarm] score',
      'instructions: How alarming is it?',
      'levels (in order, 1 is the first, JSON): ["All calm","A little smoke","Fire and smoke in the house"]',
    ].join('\n');
    const completion = await chat(prompt, jsonSchemaFormat('decision_answers', judged));
    const answers = JSON.parse(completion.choices[0]!.message.content) as { fire: { answer: string }; room: { option: string }; alarm: { level: string } };

    expect([answers.fire.answer, answers.room.option, answers.alarm.level]).toEqual(['yes', 'kitchen', '3']);
  });

  it('reads the state and the directives from a text part among images, as the gateway sends them', async () => {
    const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' } };
    const parts = (text: string): UserContent => [{ type: 'text', text }, image, image];

    const plain = await answer(parts(prompts[2]!));
    expect(plain.answers).toEqual((await answer(prompts[2]!)).answers);
    expect((await answer(parts(`${prompts[2]} [sim no_logprobs]`))).completion.choices[0]!.logprobs).toBeNull();
    const failing = await postJson(simulator.current, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: parts(`${prompts[2]} [sim status=503]`) }],
      ...jsonSchemaFormat('decision_answers', schema),
    });
    expect(failing.status).toBe(503);
  });

  it('honours the failure and timing knobs like any chat request', async () => {
    const prompt = `Decide again ${Date.now()} [sim fail_times=1 status=500 latency=150]`;
    const post = () => postJson(simulator.current, '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: prompt }], ...jsonSchemaFormat('decision_answers', schema) });
    const started = Date.now();

    expect((await post()).status).toBe(500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect((await post()).status).toBe(200);
  });
});

describe('decision_questions', () => {
  interface Question {
    id: string;
    type: string;
    instructions: string;
    options: { id: string; description: string }[];
    levels: string[];
  }
  const state = 'The warehouse roof leaks and the shipment deadline is tomorrow';

  async function questions(prompt: string, maxItems = 8): Promise<Question[]> {
    const completion = await chat(prompt, { logprobs: true, top_logprobs: 3, ...jsonSchemaFormat('decision_questions', questionsSchema(maxItems)) });
    const { message, logprobs } = completion.choices[0]!;
    expect(logprobs!.content.map((token) => token.token).join('')).toBe(message.content);
    return (JSON.parse(message.content) as { questions: Question[] }).questions;
  }

  it('writes a valid noul, choice and score question about the state', async () => {
    const written = await questions(state);

    expect(written.map((question) => question.type)).toEqual(['noul', 'choice', 'score']);
    for (const question of written) {
      expect(Object.keys(question)).toEqual(['id', 'type', 'instructions', 'options', 'levels']);
      expect(question.id).toMatch(/^[A-Za-z0-9_.-]+$/);
      expect(question.instructions.trim()).not.toBe('');
    }
    expect(new Set(written.map((question) => question.id)).size).toBe(3);
    const [noul, choice, score] = written as [Question, Question, Question];
    expect(noul.options).toEqual([]);
    expect(noul.levels).toEqual([]);
    expect(choice.options).toHaveLength(3);
    expect(new Set(choice.options.map((option) => option.id)).size).toBe(3);
    expect(choice.options.every((option) => option.description.trim() !== '')).toBe(true);
    expect(choice.levels).toEqual([]);
    expect(score.levels).toHaveLength(5);
    expect(score.options).toEqual([]);
    const words = new Set(state.toLowerCase().split(/\W+/));
    expect(written.every((question) => question.id.split('_').some((part) => words.has(part)))).toBe(true);
  });

  it('writes the same questions for the same state, others for another', async () => {
    expect(await questions(state)).toEqual(await questions(state));
    expect(await questions('Our cat refuses dinner every evening')).not.toEqual(await questions(state));
  });

  it('asks about the things of the state, not its verbs and adverbs', async () => {
    const written = await questions('I was charged twice for order 1182. Give my money back!');
    const subjects = written.map((question) => question.id.replace(/^is_|_relevant$|_trend$|_clarity$/g, ''));
    expect(subjects.slice(0, 2).sort()).toEqual(['money', 'order']);
  });

  it('writes no more questions than the schema allows', async () => {
    expect(await questions(state, 2)).toHaveLength(2);
  });

  it('unusable_questions writes questions the gateway must reject', async () => {
    const written = await questions(`${state} [sim unusable_questions]`);
    const ids = written.map((question) => question.id);

    expect(ids.some((id) => !/^[A-Za-z0-9_.-]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBeLessThan(ids.length);
    expect(written.some((question) => question.type === 'choice' && question.options.length < 2)).toBe(true);
    expect(written.some((question) => question.type === 'score' && question.levels.length > 10)).toBe(true);
  });
});
