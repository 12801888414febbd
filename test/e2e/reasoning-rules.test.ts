import { startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * One case per rule of the spec's "Chat completions with reasoning" table,
 * through the real gateway to the simulator: each checks what the client got
 * and exactly what reached the upstream (or that nothing did).
 */

type Upstream = { path: string; body: any };
interface Accepted {
  name: string;
  model: string;
  request?: Record<string, unknown>;
  upstream: (u: Upstream) => void;
  answer?: (body: any) => void;
}
interface Refused {
  name: string;
  model: string;
  request?: Record<string, unknown>;
  param: string;
  message: RegExp;
}

const anthropicThinking = (u: Upstream) => u.body.thinking;
const geminiThinking = (u: Upstream) => u.body.generationConfig?.thinkingConfig;

const accepted: Accepted[] = [
  // Family A: Claude, reasoning off unless asked.
  {
    name: 'A: off by default; an omitted max_tokens is the model maximum',
    model: 'claude-sonnet-4-5',
    upstream: (u) => {
      expect(u.path).toBe('/v1/messages');
      expect(u.body.thinking).toBeUndefined();
      expect(u.body.max_tokens).toBe(64_000);
    },
    answer: (b) => expect(b.choices[0].message.reasoning_content ?? null).toBeNull(),
  },
  { name: 'A: effort low reserves 20% of max_tokens', model: 'claude-sonnet-4-5', request: { max_tokens: 8000, reasoning: { effort: 'low' } }, upstream: (u) => expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 1600 }) },
  { name: 'A: effort medium reserves 50% (4096 -> 2048)', model: 'claude-sonnet-4-5', request: { max_tokens: 4096, reasoning: { effort: 'medium' } }, upstream: (u) => expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 2048 }) },
  { name: 'A: effort high reserves 80% (4096 -> 3277)', model: 'claude-sonnet-4-5', request: { max_tokens: 4096, reasoning: { effort: 'high' } }, upstream: (u) => expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 3277 }) },
  {
    name: 'A: the #thinking suffix turns reasoning on with 80% (4096 -> 3277)',
    model: 'claude-sonnet-4-5#thinking',
    request: { max_tokens: 4096 },
    upstream: (u) => {
      expect(u.body.model).toBe('claude-sonnet-4-5');
      expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 3277 });
      expect(u.body.max_tokens).toBe(4096);
    },
    answer: (b) => {
      expect(b.model).toBe('claude-sonnet-4-5#thinking');
      expect(b.choices[0].message.reasoning_content.length).toBeGreaterThan(0);
      expect(b.choices[0].message.reasoning_details[0]).toEqual({ type: 'thinking', thinking: expect.any(String), signature: expect.any(String) });
    },
  },
  { name: 'A: reasoning.max_tokens is the budget', model: 'claude-sonnet-4-5', request: { max_tokens: 4096, reasoning: { max_tokens: 2000 } }, upstream: (u) => expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 2000 }) },
  { name: 'A: reasoning.max_tokens wins over effort', model: 'claude-sonnet-4-5', request: { max_tokens: 4096, reasoning: { effort: 'high', max_tokens: 1500 } }, upstream: (u) => expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 1500 }) },
  {
    name: 'A: effort without max_tokens uses the model maximum (64000 -> 32000)',
    model: 'claude-sonnet-4-5',
    request: { reasoning: { effort: 'medium' } },
    upstream: (u) => {
      expect(u.body.max_tokens).toBe(64_000);
      expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 32_000 });
    },
  },
  {
    name: 'A: the 128,000-token model takes its own maximum; on 4.6, which accepts a budget, the suffix reserves 80% of it',
    model: 'claude-opus-4-6#thinking',
    upstream: (u) => {
      expect(u.body.max_tokens).toBe(128_000);
      expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 102_400 });
      expect(u.body.output_config).toBeUndefined();
    },
    answer: (b) => expect(b.choices[0].message.reasoning_content.length).toBeGreaterThan(0),
  },
  { name: 'A: an effort share under the floor is raised to 1024 (2000 x 20% -> 1024)', model: 'claude-sonnet-4-5', request: { max_tokens: 2000, reasoning: { effort: 'low' } }, upstream: (u) => expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 1024 }) },
  {
    name: 'A: Claude 4.7 takes effort as adaptive thinking with output_config.effort',
    model: 'claude-opus-4-7',
    request: { max_tokens: 4096, reasoning: { effort: 'low' } },
    upstream: (u) => {
      expect(anthropicThinking(u)).toEqual({ type: 'adaptive' });
      expect(u.body.output_config).toEqual({ effort: 'low' });
    },
    answer: (b) => expect(b.choices[0].message.reasoning_content.length).toBeGreaterThan(0),
  },
  {
    name: 'A: Claude 4.7 takes reasoning.max_tokens as the nearest effort level (5000 of 10000 -> medium)',
    model: 'claude-opus-4-7',
    request: { max_tokens: 10_000, reasoning: { max_tokens: 5_000 } },
    upstream: (u) => {
      expect(anthropicThinking(u)).toEqual({ type: 'adaptive' });
      expect(u.body.output_config).toEqual({ effort: 'medium' });
    },
  },
  { name: 'A: Claude 4.6 takes an explicit budget as a budget', model: 'claude-sonnet-4-6', request: { max_tokens: 4096, reasoning: { max_tokens: 2000 } }, upstream: (u) => expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 2000 }) },
  { name: 'A: Claude 4.6 accepts a budget, so effort medium reserves 50% (4096 -> 2048)', model: 'claude-sonnet-4-6', request: { max_tokens: 4096, reasoning: { effort: 'medium' } }, upstream: (u) => expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 2048 }) },
  { name: 'A: claude-opus-4-6 effort medium reserves 50% too (4096 -> 2048)', model: 'claude-opus-4-6', request: { max_tokens: 4096, reasoning: { effort: 'medium' } }, upstream: (u) => expect(anthropicThinking(u)).toEqual({ type: 'enabled', budget_tokens: 2048 }) },
  { name: 'Gemini 3: effort is the thinking level (Pro: medium -> high)', model: 'gemini-3-pro-preview', request: { reasoning: { effort: 'medium' } }, upstream: (u) => expect(geminiThinking(u)).toEqual({ thinkingLevel: 'high', includeThoughts: true }) },
  { name: 'B: GPT-5 takes reasoning_effort minimal', model: 'gpt-5-mini', request: { reasoning_effort: 'minimal' }, upstream: (u) => expect(u.body.reasoning_effort).toBe('minimal') },
  { name: 'Gemini 3: Flash takes low as low', model: 'gemini-3-flash-preview', request: { reasoning: { effort: 'low' } }, upstream: (u) => expect(geminiThinking(u)).toEqual({ thinkingLevel: 'low', includeThoughts: true }) },
  { name: 'A: temperature 1 is allowed while reasoning', model: 'claude-haiku-4-5', request: { max_tokens: 4096, temperature: 1, reasoning: { effort: 'medium' } }, upstream: (u) => expect(u.body.temperature).toBe(1) },
  {
    name: 'A: any temperature while not reasoning',
    model: 'claude-haiku-4-5',
    request: { temperature: 0.3 },
    upstream: (u) => {
      expect(u.body.temperature).toBe(0.3);
      expect(u.body.thinking).toBeUndefined();
    },
  },
  { name: 'A: top_p within 0.95..1 while reasoning', model: 'claude-haiku-4-5', request: { max_tokens: 8192, top_p: 0.97, reasoning: { effort: 'low' } }, upstream: (u) => expect(u.body.top_p).toBe(0.97), },
  // Family B: o-series, always reasoning, effort only.
  {
    name: 'B: always reasons, reasoning stays internal, reasoning tokens are reported',
    model: 'o3',
    upstream: (u) => {
      expect(u.path).toBe('/v1/chat/completions');
      expect(u.body.reasoning_effort).toBeUndefined();
    },
    answer: (b) => {
      expect(b.choices[0].message.reasoning_content ?? null).toBeNull();
      expect(b.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    },
  },
  { name: 'B: effort is sent as reasoning_effort', model: 'o3', request: { reasoning: { effort: 'high' } }, upstream: (u) => expect(u.body.reasoning_effort).toBe('high') },
  { name: 'B: the native reasoning_effort field works too', model: 'o4-mini', request: { reasoning_effort: 'low' }, upstream: (u) => expect(u.body.reasoning_effort).toBe('low') },
  {
    name: 'B: max_tokens is sent as max_completion_tokens',
    model: 'o4-mini',
    request: { max_tokens: 5000 },
    upstream: (u) => {
      expect(u.body.max_completion_tokens).toBe(5000);
      expect(u.body).not.toHaveProperty('max_tokens');
    },
  },
  // Family C: Gemini 2.5, reasoning on by default.
  {
    name: 'C: on by default with a dynamic budget and thought summaries',
    model: 'gemini-2.5-flash',
    upstream: (u) => {
      expect(u.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(geminiThinking(u)).toEqual({ includeThoughts: true });
    },
    answer: (b) => {
      expect(b.choices[0].message.reasoning_content.length).toBeGreaterThan(0);
      expect(b.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    },
  },
  { name: 'C: reasoning.max_tokens is the thinking budget', model: 'gemini-2.5-flash', request: { reasoning: { max_tokens: 2048 } }, upstream: (u) => expect(geminiThinking(u)).toEqual({ thinkingBudget: 2048, includeThoughts: true }) },
  {
    name: 'C: reasoning.max_tokens 0 turns reasoning off on 2.5 flash',
    model: 'gemini-2.5-flash',
    request: { reasoning: { max_tokens: 0 } },
    upstream: (u) => expect(geminiThinking(u)).toEqual({ thinkingBudget: 0 }),
    answer: (b) => {
      expect(b.choices[0].message.reasoning_content ?? null).toBeNull();
      expect(b.usage.completion_tokens_details.reasoning_tokens).toBe(0);
    },
  },
  { name: 'C: pro takes a budget up to 32768', model: 'gemini-2.5-pro', request: { reasoning: { max_tokens: 32_768 } }, upstream: (u) => expect(geminiThinking(u).thinkingBudget).toBe(32_768) },
  { name: 'C: temperature is unrestricted while reasoning', model: 'gemini-2.5-pro', request: { temperature: 0.2, reasoning: { max_tokens: 1024 } }, upstream: (u) => expect(u.body.generationConfig.temperature).toBe(0.2) },
];

const refused: Refused[] = [
  { name: 'A: reasoning.max_tokens below 1024', model: 'claude-sonnet-4-5', request: { max_tokens: 4096, reasoning: { max_tokens: 500 } }, param: 'reasoning.max_tokens', message: /at least 1024/ },
  { name: 'A: an effort when max_tokens cannot hold the 1024 floor and an answer', model: 'claude-sonnet-4-5', request: { max_tokens: 1024, reasoning: { effort: 'low' } }, param: 'max_tokens', message: /at least 1024 tokens plus room for the answer.*Raise "max_tokens" above 1024/ },
  { name: 'A: a budget not below max_tokens', model: 'claude-sonnet-4-5', request: { max_tokens: 4096, reasoning: { max_tokens: 5000 } }, param: 'reasoning.max_tokens', message: /less than "max_tokens" \(4096\)/ },
  { name: 'A: temperature other than 1 while reasoning', model: 'claude-sonnet-4-5', request: { temperature: 0.5, reasoning: { effort: 'medium' } }, param: 'temperature', message: /must be 1/ },
  { name: 'A: top_k while reasoning', model: 'claude-sonnet-4-5#thinking', request: { top_k: 5 }, param: 'top_k', message: /cannot be combined with reasoning/ },
  { name: 'A: top_p outside 0.95..1 while reasoning', model: 'claude-sonnet-4-5#thinking', request: { top_p: 0.5 }, param: 'top_p', message: /between 0.95 and 1/ },
  {
    name: 'A: forced tool use while reasoning',
    model: 'claude-sonnet-4-5#thinking',
    request: { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }], tool_choice: 'required' },
    param: 'tool_choice',
    message: /cannot be combined with reasoning/,
  },
  { name: 'A: reasoning.max_tokens 0 (off is the default; nothing to turn off)', model: 'claude-sonnet-4-5', request: { reasoning: { max_tokens: 0 } }, param: 'reasoning.max_tokens', message: /omit "reasoning"/ },
  { name: 'B: reasoning.max_tokens is unsupported', model: 'o3', request: { reasoning: { max_tokens: 2048 } }, param: 'reasoning.max_tokens', message: /not supported by "o3".*reasoning.effort/ },
  { name: 'B: reasoning cannot be turned off', model: 'o3', request: { reasoning: { max_tokens: 0 } }, param: 'reasoning.max_tokens', message: /not supported/ },
  { name: 'B: the #thinking suffix is unsupported', model: 'o3#thinking', param: 'model', message: /#thinking suffix is not supported by "o3", which always reasons/ },
  { name: 'B: an effort the model does not list', model: 'o3', request: { reasoning_effort: 'minimal' }, param: 'reasoning_effort', message: /"minimal" is not supported by "o3"; use low, medium or high/ },
  { name: 'B: temperature is unsupported', model: 'o4-mini', request: { temperature: 1 }, param: 'temperature', message: /not supported by "o4-mini"/ },
  { name: 'B: top_p is unsupported', model: 'o4-mini', request: { top_p: 0.9 }, param: 'top_p', message: /not supported/ },
  { name: 'B: top_k is unsupported', model: 'o3', request: { top_k: 3 }, param: 'top_k', message: /not supported/ },
  { name: 'C: effort is unsupported', model: 'gemini-2.5-flash', request: { reasoning: { effort: 'high' } }, param: 'reasoning.effort', message: /not supported by "gemini-2.5-flash".*reasoning.max_tokens/ },
  { name: 'C: the #thinking suffix is unsupported', model: 'gemini-2.5-pro#thinking', param: 'model', message: /#thinking suffix is not supported/ },
  { name: 'C: reasoning.max_tokens below 1024', model: 'gemini-2.5-flash', request: { reasoning: { max_tokens: 512 } }, param: 'reasoning.max_tokens', message: /at least 1024/ },
  { name: 'C: reasoning cannot be turned off on 2.5 pro', model: 'gemini-2.5-pro', request: { reasoning: { max_tokens: 0 } }, param: 'reasoning.max_tokens', message: /cannot be turned off on "gemini-2.5-pro"/ },
  { name: 'C: a budget above the model limit', model: 'gemini-2.5-flash', request: { reasoning: { max_tokens: 30_000 } }, param: 'reasoning.max_tokens', message: /at most 24576/ },
  { name: 'a model that does not reason refuses reasoning', model: 'gpt-4.1', request: { reasoning: { effort: 'low' } }, param: 'reasoning.effort', message: /does not reason/ },
  { name: 'effort given twice, differently', model: 'o3', request: { reasoning: { effort: 'low' }, reasoning_effort: 'high' }, param: 'reasoning_effort', message: /disagree/ },
];

describe('reasoning controls, rule by rule', () => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway();
    key = await t.createKey({ name: 'reasoning' });
  });
  afterAll(() => t?.close());

  async function send(model: string, request: Record<string, unknown> = {}) {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const res = await fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Why is the sky blue?' }], ...request }),
    });
    const upstream = ((await (await fetch(`${t.simulatorUrl}/_sim/requests`)).json()) as { requests: Upstream[] }).requests;
    return { status: res.status, body: (await res.json()) as any, upstream, requestId: res.headers.get('x-svc-request-id')! };
  }

  it('covers at least 30 rules', () => {
    expect(accepted.length + refused.length).toBeGreaterThanOrEqual(30);
  });

  it.each(accepted.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { status, body, upstream } = await send(c.model, c.request);
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    expect(upstream).toHaveLength(1);
    c.upstream(upstream[0]);
    c.answer?.(body);
  });

  it.each(refused.map((c) => [c.name, c] as const))('refuses %s', async (_name, c) => {
    const { status, body, upstream, requestId } = await send(c.model, c.request);
    expect(status).toBe(400);
    expect(body.error.param).toBe(c.param);
    expect(body.error.message).toMatch(c.message);
    expect(upstream).toHaveLength(0);
    const record: any = await (await fetch(`${t.url}/api/usage/requests/${requestId}`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(record.billing.amount_microusd).toBe(0);
    expect(record.routing.status_code).toBe(400);
  });

  it('B: an upstream 400 about the usage rules tells the client to check the prompt', async () => {
    const { status, body } = await send('o3', { messages: [{ role: 'user', content: 'x [sim status=400 code=invalid_prompt]' }] });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_prompt');
    expect(body.error.message).toMatch(/usage rules/);
  });
});
