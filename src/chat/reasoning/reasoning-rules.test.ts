import { DEFAULT_MODELS } from '../../config/default-catalog';
import { modelSchema, type ModelConfig } from '../../config/gateway-config-schema';
import { GatewayError } from '../../errors/gateway-error';
import type { ChatRequest } from '../../providers/chat-request';
import { applyReasoningRules } from './reasoning-rules';

const catalogModel = (id: string): ModelConfig => modelSchema.parse(DEFAULT_MODELS.find((m) => m.id === id));
const models = {
  sonnet: catalogModel('claude-sonnet-4-5'),
  opus: catalogModel('claude-opus-4-6'),
  sonnet46: catalogModel('claude-sonnet-4-6'),
  opus47: catalogModel('claude-opus-4-7'),
  gemini3pro: catalogModel('gemini-3-pro-preview'),
  gemini3flash: catalogModel('gemini-3-flash-preview'),
  o3: catalogModel('o3'),
  flash: catalogModel('gemini-2.5-flash'),
  pro: catalogModel('gemini-2.5-pro'),
  plain: catalogModel('gpt-4.1-mini'),
};
type ModelName = keyof typeof models;

const messages: ChatRequest['messages'] = [{ role: 'user', content: 'What is 925 / 5?' }];
const req = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'client-name', messages, ...extra });
const apply = (name: ModelName, extra: Partial<ChatRequest> = {}, suffix = false) => applyReasoningRules(models[name], req(extra), suffix);

function refusal(name: ModelName, extra: Partial<ChatRequest>, suffix = false): GatewayError {
  try {
    apply(name, extra, suffix);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  }
  throw new Error('expected a refusal');
}

type Refusal = [string, ModelName, Partial<ChatRequest>, boolean, 'unsupported_parameter' | 'invalid_parameter', string, string];

function expectRefusal([, name, extra, suffix, code, param, fragment]: Refusal): void {
  const err = refusal(name, extra, suffix);
  expect({ status: err.status, code: err.code, param: err.options.param }).toEqual({ status: 400, code, param });
  expect(err.message).toContain(fragment);
}

describe('applyReasoningRules', () => {
  describe('anthropic (default off, budget from max_tokens shares)', () => {
    it.each([
      ['low', 10_000, 2_000],
      ['medium', 4_096, 2_048],
      ['high', 4_096, 3_277],
      ['low', 5_120, 1_024],
    ] as const)('effort %s reserves its share of max_tokens %d: %d', (effort, maxTokens, budget) => {
      expect(apply('sonnet', { max_tokens: maxTokens, reasoning: { effort } })).toEqual({
        model: 'client-name',
        messages,
        max_tokens: maxTokens,
        thinking: { enabled: true, budgetTokens: budget, includeThoughts: true },
      });
    });

    it('takes reasoning_effort like reasoning.effort, and both when they agree', () => {
      expect(apply('sonnet', { max_tokens: 4096, reasoning_effort: 'medium' }).thinking).toEqual({ enabled: true, budgetTokens: 2048, includeThoughts: true });
      expect(apply('sonnet', { max_tokens: 4096, reasoning_effort: 'high', reasoning: { effort: 'high' } }).thinking?.budgetTokens).toBe(3277);
    });

    it('the #thinking suffix reserves 80 % of max_tokens (4096 -> 3277)', () => {
      expect(apply('sonnet', { max_tokens: 4096 }, true).thinking).toEqual({ enabled: true, budgetTokens: 3277, includeThoughts: true });
    });

    it.each([
      ['over effort', { max_tokens: 4096, reasoning: { effort: 'high', max_tokens: 1500 } }, false, 1500],
      ['over the suffix', { max_tokens: 4096, reasoning: { max_tokens: 1200 } }, true, 1200],
      ['as the only control', { max_tokens: 1025, reasoning: { max_tokens: 1024 } }, false, 1024],
    ] as const)('reasoning.max_tokens is the budget %s', (_, extra, suffix, budget) => {
      expect(apply('sonnet', extra, suffix).thinking?.budgetTokens).toBe(budget);
    });

    it('effort wins over the suffix', () => {
      expect(apply('sonnet', { max_tokens: 10_000, reasoning: { effort: 'low' } }, true).thinking?.budgetTokens).toBe(2000);
    });

    it.each([
      ['low', 2_000, 1_024],
      ['low', 1_025, 1_024],
      ['medium', 1_500, 1_024],
    ] as const)('effort %s whose share of max_tokens %d falls under the floor is raised to %d', (effort, maxTokens, budget) => {
      expect(apply('sonnet', { max_tokens: maxTokens, reasoning: { effort } }).thinking).toEqual({ enabled: true, budgetTokens: budget, includeThoughts: true });
    });

    it('the suffix share under the floor is raised too (max_tokens 1100 -> 1024)', () => {
      expect(apply('sonnet', { max_tokens: 1100 }, true).thinking?.budgetTokens).toBe(1024);
    });

    it.each([
      ['sonnet', 64_000, { reasoning: { effort: 'medium' } }, false, 32_000],
    ] as const)('an omitted max_tokens on %s becomes the model max %d', (name, max, extra, suffix, budget) => {
      const out = apply(name, extra, suffix);
      expect(out.max_tokens).toBe(max);
      expect(out.thinking?.budgetTokens).toBe(budget);
    });

    it('stays off when nothing asks for it, still with the model max, and sampling is free', () => {
      expect(apply('sonnet', { temperature: 0.3, top_k: 5, top_p: 0.5 })).toEqual({
        model: 'client-name', messages, temperature: 0.3, top_k: 5, top_p: 0.5, max_tokens: 64_000, thinking: { enabled: false },
      });
    });

    it('sends max_completion_tokens as max_tokens', () => {
      const out = apply('sonnet', { max_completion_tokens: 4096, reasoning: { effort: 'medium' } });
      expect(out.max_tokens).toBe(4096);
      expect(out).not.toHaveProperty('max_completion_tokens');
      expect(out.thinking?.budgetTokens).toBe(2048);
    });

    it.each<[Partial<ChatRequest>]>([
      [{ temperature: 1 }],
      [{ top_p: 0.95 }],
      [{ top_p: 1 }],
      [{ temperature: null, top_k: null, top_p: null }],
      [{ tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'auto' }],
      [{ tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'none' }],
    ])('accepts %j while reasoning', (extra) => {
      expect(apply('sonnet', { max_tokens: 4096, reasoning: { effort: 'medium' }, ...extra }).thinking?.enabled).toBe(true);
    });

    const withTool = { tools: [{ type: 'function' as const, function: { name: 'f' } }] };
    it.each<Refusal>([
      ['budget below 1024', 'sonnet', { max_tokens: 4096, reasoning: { max_tokens: 1023 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'at least 1024 when reasoning is on (got 1023)'],
      ['budget not below max_tokens', 'sonnet', { max_tokens: 4096, reasoning: { max_tokens: 4096 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'must be less than "max_tokens" (4096)'],
      ['budget 0 (already off)', 'sonnet', { reasoning: { max_tokens: 0 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'reasoning is already off unless asked for'],
      ['low effort when max_tokens cannot hold the floor', 'sonnet', { max_tokens: 1024, reasoning: { effort: 'low' } }, false, 'invalid_parameter', 'max_tokens', 'needs a reasoning budget of at least 1024 tokens plus room for the answer, but "max_tokens" is 1024. Raise "max_tokens" above 1024'],
      ['the suffix when max_tokens cannot hold the floor', 'sonnet', { max_tokens: 1000 }, true, 'invalid_parameter', 'max_tokens', 'Raise "max_tokens" above 1024'],
      ['temperature other than 1', 'sonnet', { max_tokens: 4096, reasoning: { effort: 'medium' }, temperature: 0.7 }, false, 'invalid_parameter', 'temperature', 'must be 1 while "claude-sonnet-4-5" reasons (got 0.7)'],
      ['temperature 0 with the suffix', 'sonnet', { max_tokens: 4096, temperature: 0 }, true, 'invalid_parameter', 'temperature', '(got 0)'],
      ['top_k', 'sonnet', { max_tokens: 4096, reasoning: { effort: 'medium' }, top_k: 40 }, false, 'unsupported_parameter', 'top_k', 'cannot be combined with reasoning'],
      ['top_p below 0.95', 'sonnet', { max_tokens: 4096, reasoning: { effort: 'medium' }, top_p: 0.9 }, false, 'invalid_parameter', 'top_p', 'between 0.95 and 1'],
      ['forced tool use (required)', 'sonnet', { max_tokens: 4096, reasoning: { effort: 'medium' }, ...withTool, tool_choice: 'required' }, false, 'unsupported_parameter', 'tool_choice', 'use "auto" or "none"'],
      ['forced tool use (named)', 'sonnet', { max_tokens: 4096, reasoning: { effort: 'medium' }, ...withTool, tool_choice: { type: 'function', function: { name: 'f' } } }, false, 'unsupported_parameter', 'tool_choice', 'Forcing a tool call'],
      ['efforts that disagree', 'sonnet', { max_tokens: 4096, reasoning_effort: 'low', reasoning: { effort: 'high' } }, false, 'invalid_parameter', 'reasoning_effort', '"reasoning_effort" (low) and "reasoning.effort" (high) disagree'],
    ])('refuses %s', (...row) => expectRefusal(row));
  });

  describe('Claude 4.6 accepts a budget, so the spec\'s share rule holds for it', () => {
    it.each([
      ['sonnet46', 'low', 1024],
      ['sonnet46', 'medium', 2048],
      ['opus', 'medium', 2048],
      ['opus', 'high', 3277],
    ] as const)('%s: effort %s reserves its share of max_tokens 4096 as the budget (%d)', (name, effort, budgetTokens) => {
      expect(apply(name, { max_tokens: 4096, reasoning: { effort } }).thinking).toEqual({ enabled: true, budgetTokens, includeThoughts: true });
    });

    it.each(['sonnet46', 'opus'] as const)('%s: the #thinking suffix reserves 80 %%, and reasoning.max_tokens wins over effort', (name) => {
      expect(apply(name, { max_tokens: 4096 }, true).thinking).toEqual({ enabled: true, budgetTokens: 3277, includeThoughts: true });
      expect(apply(name, { max_tokens: 10_000, reasoning: { effort: 'high', max_tokens: 4_000 } }).thinking).toEqual({ enabled: true, budgetTokens: 4_000, includeThoughts: true });
    });

    it('a catalog that still says adaptive_or_budget gets the share rule too', () => {
      const old = modelSchema.parse({ ...DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6'), reasoning: { ...DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!.reasoning, control: 'adaptive_or_budget' } });
      expect(old.reasoning!.control).toBe('budget');
      expect(applyReasoningRules(old, req({ max_tokens: 4096, reasoning: { effort: 'medium' } }), false).thinking).toEqual({ enabled: true, budgetTokens: 2048, includeThoughts: true });
    });
  });

  describe('anthropic adaptive thinking (Claude 4.7 and later refuse a budget and take an effort level)', () => {
    it.each([
      ['opus47', 'low'],
      ['opus47', 'medium'],
      ['opus47', 'high'],
    ] as const)('%s: effort %s is sent as the level, with no budget', (name, effort) => {
      expect(apply(name, { max_tokens: 4096, reasoning: { effort } }).thinking).toEqual({ enabled: true, effort, includeThoughts: true });
    });

    it('an effort that would fall under the budget floor is fine: there is no budget', () => {
      expect(apply('opus47', { max_tokens: 1000, reasoning: { effort: 'low' } }).thinking).toEqual({ enabled: true, effort: 'low', includeThoughts: true });
    });

    it('the #thinking suffix (80 %) becomes high, and an omitted max_tokens is the model max', () => {
      const out = apply('opus47', {}, true);
      expect(out.max_tokens).toBe(128_000);
      expect(out.thinking).toEqual({ enabled: true, effort: 'high', includeThoughts: true });
    });

    it.each([
      [1_024, 10_000, 'low'],
      [4_000, 10_000, 'medium'],
      [6_600, 10_000, 'high'],
    ] as const)('claude-opus-4-7: reasoning.max_tokens %d of %d becomes the nearest level, %s', (budget, maxTokens, level) => {
      expect(apply('opus47', { max_tokens: maxTokens, reasoning: { max_tokens: budget } }).thinking).toEqual({ enabled: true, effort: level, includeThoughts: true });
    });

    it('stays off when nothing asks for it', () => {
      expect(apply('opus47', { max_tokens: 4096 }).thinking).toEqual({ enabled: false });
    });

    it.each<Refusal>([
      ['a budget below 1024', 'opus47', { max_tokens: 4096, reasoning: { max_tokens: 1000 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'at least 1024'],
      ['a budget not below max_tokens', 'opus47', { max_tokens: 2000, reasoning: { max_tokens: 2000 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'must be less than "max_tokens" (2000)'],
      ['temperature other than 1', 'opus47', { max_tokens: 4096, reasoning: { effort: 'low' }, temperature: 0.2 }, false, 'invalid_parameter', 'temperature', 'must be 1'],
    ])('refuses %s', (...row) => expectRefusal(row));
  });

  describe('effort levels beyond low, medium and high', () => {
    const gpt5 = modelSchema.parse(DEFAULT_MODELS.find((m) => m.id === 'gpt-5'));
    it('GPT-5 takes minimal, as its catalog entry lists it', () => {
      expect(applyReasoningRules(gpt5, req({ reasoning_effort: 'minimal' }), false).thinking).toEqual({ enabled: true, effort: 'minimal' });
    });

    it.each<Refusal>([
      ['minimal on o3', 'o3', { reasoning_effort: 'minimal' }, false, 'invalid_parameter', 'reasoning_effort', '"minimal" is not supported by "o3"; use low, medium or high'],
      ['minimal on Claude', 'sonnet', { max_tokens: 4096, reasoning: { effort: 'minimal' } }, false, 'invalid_parameter', 'reasoning.effort', 'use low, medium or high'],
      ['xhigh on Gemini 3', 'gemini3pro', { reasoning: { effort: 'xhigh' } }, false, 'invalid_parameter', 'reasoning.effort', 'use low, medium or high'],
    ])('refuses %s', (...row) => expectRefusal(row));
  });

  describe('gemini 3 (thinking levels)', () => {
    it('Pro has no medium level: medium is sent as high', () => {
      expect(apply('gemini3pro', { reasoning: { effort: 'medium' } }).thinking).toEqual({ enabled: true, effort: 'high', includeThoughts: true });
    });

    it('Flash takes each level as it is', () => {
      expect(apply('gemini3flash', { reasoning: { effort: 'medium' } }).thinking).toEqual({ enabled: true, effort: 'medium', includeThoughts: true });
    });

    it('reasons at its default level when nothing is asked, and cannot be turned off', () => {
      expect(apply('gemini3pro').thinking).toEqual({ enabled: true, includeThoughts: true });
      expectRefusal(['off', 'gemini3pro', { reasoning: { max_tokens: 0 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'cannot be turned off']);
    });
  });

  describe('openai-reasoning (o-series, always on, native effort)', () => {
    it.each([
      [{ reasoning: { effort: 'high' } }, { enabled: true, effort: 'high' }],
      [{ reasoning_effort: 'low' }, { enabled: true, effort: 'low' }],
      [{}, { enabled: true }],
    ] as const)('reasons with %j as %j', (extra, thinking) => {
      expect(apply('o3', extra)).toEqual({ model: 'client-name', messages, thinking });
    });

    it('sends max_tokens as max_completion_tokens, and nothing when omitted', () => {
      const out = apply('o3', { max_tokens: 5000 });
      expect(out.max_completion_tokens).toBe(5000);
      expect(out).not.toHaveProperty('max_tokens');
      expect(apply('o3', { max_tokens: 5000, max_completion_tokens: 7000 }).max_completion_tokens).toBe(7000);
      expect(apply('o3')).not.toHaveProperty('max_completion_tokens');
    });

    it.each<Refusal>([
      ['the #thinking suffix', 'o3', {}, true, 'unsupported_parameter', 'model', 'not supported by "o3", which always reasons; use the model name without it.'],
      ['reasoning.max_tokens', 'o3', { reasoning: { max_tokens: 2048 } }, false, 'unsupported_parameter', 'reasoning.max_tokens', 'control its reasoning with "reasoning.effort"'],
      ['reasoning.max_tokens 0', 'o3', { reasoning: { max_tokens: 0 } }, false, 'unsupported_parameter', 'reasoning.max_tokens', 'is not supported by "o3"'],
      ['temperature', 'o3', { temperature: 0.5 }, false, 'unsupported_parameter', 'temperature', 'which always reasons; remove it'],
      ['temperature 1', 'o3', { temperature: 1 }, false, 'unsupported_parameter', 'temperature', '"temperature" is not supported'],
      ['top_p', 'o3', { top_p: 1 }, false, 'unsupported_parameter', 'top_p', '"top_p" is not supported'],
      ['top_k', 'o3', { top_k: 3 }, false, 'unsupported_parameter', 'top_k', '"top_k" is not supported'],
    ])('refuses %s', (...row) => expectRefusal(row));
  });

  describe('gemini (default on, budget only)', () => {
    it('reasons by default with the dynamic budget and leaves max_tokens to the upstream', () => {
      expect(apply('flash')).toEqual({ model: 'client-name', messages, thinking: { enabled: true, includeThoughts: true } });
    });

    it.each([
      ['flash', 1024],
      ['flash', 24_576],
      ['pro', 32_768],
    ] as const)('%s takes reasoning.max_tokens %d as the budget', (name, budget) => {
      expect(apply(name, { reasoning: { max_tokens: budget } }).thinking).toEqual({ enabled: true, budgetTokens: budget, includeThoughts: true });
    });

    it('reasoning.max_tokens 0 turns gemini-2.5-flash off', () => {
      expect(apply('flash', { reasoning: { max_tokens: 0 } })).toEqual({ model: 'client-name', messages, thinking: { enabled: false } });
    });

    it('leaves sampling and tool_choice free while reasoning, and sends max_completion_tokens as max_tokens', () => {
      const tools = [{ type: 'function' as const, function: { name: 'f' } }];
      const out = apply('pro', { temperature: 0.2, top_p: 0.5, top_k: 40, tools, tool_choice: 'required', max_completion_tokens: 8000 });
      expect(out).toMatchObject({ temperature: 0.2, top_p: 0.5, top_k: 40, tool_choice: 'required', max_tokens: 8000 });
      expect(out).not.toHaveProperty('max_completion_tokens');
    });

    it.each<Refusal>([
      ['reasoning.effort', 'flash', { reasoning: { effort: 'low' } }, false, 'unsupported_parameter', 'reasoning.effort', 'set the reasoning budget with "reasoning.max_tokens" (at least 1024) instead'],
      ['reasoning_effort', 'pro', { reasoning_effort: 'high' }, false, 'unsupported_parameter', 'reasoning_effort', '"reasoning_effort" is not supported by "gemini-2.5-pro"'],
      ['the #thinking suffix', 'flash', {}, true, 'unsupported_parameter', 'model', 'use the model name without it and set "reasoning.max_tokens"'],
      ['budget 0 on pro', 'pro', { reasoning: { max_tokens: 0 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'reasoning cannot be turned off on "gemini-2.5-pro"'],
      ['budget below 1024', 'flash', { reasoning: { max_tokens: 1000 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'at least 1024 when reasoning is on (got 1000)'],
      ['budget above the flash limit', 'flash', { reasoning: { max_tokens: 24_577 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'at most 24576 on "gemini-2.5-flash" (got 24577)'],
      ['budget above the pro limit', 'pro', { reasoning: { max_tokens: 32_769 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'at most 32768'],
      ['budget not below max_tokens', 'flash', { max_tokens: 2048, reasoning: { max_tokens: 2048 } }, false, 'invalid_parameter', 'reasoning.max_tokens', 'must be less than "max_tokens" (2048)'],
    ])('refuses %s', (...row) => expectRefusal(row));
  });

  describe('plain openai (does not reason)', () => {
    it.each([
      [{}],
      [{ reasoning: {} }],
      [{ reasoning: null, reasoning_effort: null }],
    ] as const)('passes %j through without reasoning fields', (extra) => {
      const out = apply('plain', { max_tokens: 100, temperature: 0.2, ...extra });
      expect(out).toEqual({ model: 'client-name', messages, max_tokens: 100, temperature: 0.2 });
      expect(out).not.toHaveProperty('reasoning');
      expect(out).not.toHaveProperty('reasoning_effort');
      expect(out).not.toHaveProperty('thinking');
    });

    it.each<Refusal>([
      ['reasoning.effort', 'plain', { reasoning: { effort: 'low' } }, false, 'unsupported_parameter', 'reasoning.effort', 'The model "gpt-4.1-mini" does not reason; remove "reasoning.effort".'],
      ['reasoning_effort', 'plain', { reasoning_effort: 'low' }, false, 'unsupported_parameter', 'reasoning_effort', 'remove "reasoning_effort"'],
      ['reasoning.max_tokens', 'plain', { reasoning: { max_tokens: 2048 } }, false, 'unsupported_parameter', 'reasoning.max_tokens', 'remove "reasoning.max_tokens"'],
      ['reasoning.max_tokens 0', 'plain', { reasoning: { max_tokens: 0 } }, false, 'unsupported_parameter', 'reasoning.max_tokens', 'does not reason'],
      ['the #thinking suffix', 'plain', {}, true, 'unsupported_parameter', 'model', 'remove the #thinking suffix'],
      ['the suffix with an effort (names the model)', 'plain', { reasoning: { effort: 'high' } }, true, 'unsupported_parameter', 'model', 'remove the #thinking suffix'],
    ])('refuses %s', (...row) => expectRefusal(row));
  });
});
