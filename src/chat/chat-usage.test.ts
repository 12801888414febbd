import type { ChatRequest } from '../providers/chat-request';
import type { ProviderUsage } from '../providers/usage';
import { estimateLocally } from '../billing/local-usage-estimate';
import { clientUsageFromMeasured, toClientUsage, withLocalOutput, withReasoningEstimate } from './chat-usage';

/** o200k token counts of the texts below: "Hello world" 2, "user" 1, "assistant" 1, THINKING 7, ANSWER 6, the tools JSON 14, "get_time" 2, "{}" 1. */
const THINKING = 'Let me think about this carefully.';
const ANSWER = 'The answer is 185.';

const usage = (extra: Partial<ProviderUsage> = {}): ProviderUsage => ({
  inputTokens: 100, outputTokens: 50, reasoningTokens: 0, cacheReadTokens: 0,
  cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: false, family: 'anthropic', raw: {}, ...extra,
});

const req = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'm', messages: [{ role: 'user', content: 'Hello world' }], ...extra });

describe('chat usage', () => {
  describe('withReasoningEstimate', () => {
    it('counts returned reasoning text when the upstream did not split it out of output', () => {
      const reported = usage({ outputTokens: 50 });
      const out = withReasoningEstimate(reported, THINKING);
      expect(out).toEqual({ usage: { ...reported, reasoningTokens: 7 }, estimated: true });
      expect(reported.reasoningTokens).toBe(0);
    });

    it('never estimates more reasoning than the whole output', () => {
      expect(withReasoningEstimate(usage({ outputTokens: 5 }), THINKING)).toMatchObject({ usage: { outputTokens: 5, reasoningTokens: 5 }, estimated: true });
    });

    it.each([
      ['reported reasoning', usage({ reasoningTokens: 12 }), THINKING],
      ['no reasoning text', usage(), ''],
    ])('keeps the usage as is with %s', (_, reported, text) => {
      const out = withReasoningEstimate(reported, text);
      expect(out.usage).toBe(reported);
      expect(out.estimated).toBe(false);
    });
  });

  describe('estimateLocally', () => {
    it.each<[string, Partial<ChatRequest>, number]>([
      ['one message: 3 priming + 3 framing + role + content', {}, 9],
      ['tools add their JSON', { tools: [{ type: 'function', function: { name: 'get_time' } }] }, 23],
      ['an image part counts 85', { messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello world' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] }, 94],
      ['assistant tool calls count name and arguments', {
        messages: [
          { role: 'user', content: 'Hello world' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
        ],
      }, 9 + 3 + 1 + 2 + 1],
    ])('counts the prompt: %s', (_, extra, promptTokens) => {
      expect(estimateLocally(req(extra), ANSWER, 'openai').promptTokens).toBe(promptTokens);
    });

    it('counts the output, marks both sides local_estimate and bills input and output only', () => {
      expect(estimateLocally(req(), ANSWER, 'openai')).toEqual({
        promptTokens: 9,
        completionTokens: 6,
        dimensions: [{ name: 'input', quantity: 9, unit: 'tokens' }, { name: 'output', quantity: 6, unit: 'tokens' }],
        measurement: { input: 'local_estimate', output: 'local_estimate' },
        providerUsage: { family: 'openai', raw_fields: {} },
      });
    });

    it('an empty answer is zero output tokens', () => {
      expect(estimateLocally(req(), '', 'gemini').dimensions).toEqual([
        { name: 'input', quantity: 9, unit: 'tokens' },
        { name: 'output', quantity: 0, unit: 'tokens' },
      ]);
    });
  });

  describe('withLocalOutput', () => {
    const promptSide = usage({
      inputTokens: 100, outputTokens: 3, reasoningTokens: 2, cacheReadTokens: 40,
      cacheWriteTokens: { ttl5m: 10, ttl1h: 0 }, reportsCache: true, raw: { input_tokens: 50 },
    });

    it('keeps the provider prompt side with its cache dimensions and counts the output locally', () => {
      expect(withLocalOutput(promptSide, ANSWER)).toEqual({
        promptTokens: 100,
        completionTokens: 6,
        dimensions: [
          { name: 'input', quantity: 50, unit: 'tokens' },
          { name: 'cache_read', quantity: 40, unit: 'tokens' },
          { name: 'cache_write_5m', quantity: 10, unit: 'tokens' },
          { name: 'output', quantity: 6, unit: 'tokens' },
        ],
        measurement: { input: 'provider', output: 'local_estimate' },
        providerUsage: { family: 'anthropic', raw_fields: { input_tokens: 50 } },
      });
    });

    it('never counts less output than the upstream already reported', () => {
      expect(withLocalOutput({ ...promptSide, outputTokens: 80 }, ANSWER).completionTokens).toBe(80);
      expect(withLocalOutput(promptSide, '').completionTokens).toBe(3);
    });
  });

  describe('toClientUsage', () => {
    it('OpenAI figures: keeps the raw details and adds the cache split', () => {
      const reported = usage({
        inputTokens: 9, outputTokens: 12, reportsCache: true, family: 'openai',
        raw: { prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 } },
      });
      expect(toClientUsage(reported)).toStrictEqual({
        prompt_tokens: 9,
        completion_tokens: 12,
        total_tokens: 21,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0, cache_write_tokens: 0, cache_miss_tokens: 9 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      });
    });

    it('cache reads and both write lifetimes: miss = input - reads - writes', () => {
      const reported = usage({ inputTokens: 1000, outputTokens: 500, reasoningTokens: 200, cacheReadTokens: 300, cacheWriteTokens: { ttl5m: 100, ttl1h: 50 }, reportsCache: true });
      expect(toClientUsage(reported)).toStrictEqual({
        prompt_tokens: 1000,
        completion_tokens: 500,
        total_tokens: 1500,
        prompt_tokens_details: { cached_tokens: 300, cache_write_tokens: 150, cache_miss_tokens: 550 },
        completion_tokens_details: { reasoning_tokens: 200 },
      });
    });

    it('the gateway figures win over raw ones of the same name', () => {
      const reported = usage({ reasoningTokens: 7, cacheReadTokens: 20, reportsCache: true, raw: { prompt_tokens_details: { cached_tokens: 999 }, completion_tokens_details: { reasoning_tokens: 0 } } });
      const out = toClientUsage(reported);
      expect(out.prompt_tokens_details?.cached_tokens).toBe(20);
      expect(out.completion_tokens_details?.reasoning_tokens).toBe(7);
    });

    it('a miss count the upstream reported is passed on as reported, the other details as they are', () => {
      const reported = usage({
        inputTokens: 1000, outputTokens: 20, cacheReadTokens: 600, cacheMissTokens: 300, reportsCache: true, family: 'openai',
        raw: { prompt_cache_hit_tokens: 600, prompt_cache_miss_tokens: 300, prompt_tokens_details: { cached_tokens: 600 } },
      });
      expect(toClientUsage(reported)).toStrictEqual({
        prompt_tokens: 1000,
        completion_tokens: 20,
        total_tokens: 1020,
        // Not 400 (the prompt less the reads): the upstream said 300 missed.
        prompt_tokens_details: { cached_tokens: 600, cache_write_tokens: 0, cache_miss_tokens: 300 },
        completion_tokens_details: { reasoning_tokens: 0 },
      });
    });

    it('a miss count never goes below zero', () => {
      expect(toClientUsage(usage({ inputTokens: 10, cacheReadTokens: 8, cacheWriteTokens: { ttl5m: 5, ttl1h: 0 }, reportsCache: true })).prompt_tokens_details?.cache_miss_tokens).toBe(0);
    });

    it('without cache figures: raw prompt details as they came, or none at all', () => {
      expect(toClientUsage(usage({ raw: { prompt_tokens_details: { audio_tokens: 3 } } })).prompt_tokens_details).toStrictEqual({ audio_tokens: 3 });
      const bare = toClientUsage(usage());
      expect(bare).not.toHaveProperty('prompt_tokens_details');
      expect(bare).toStrictEqual({ prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, completion_tokens_details: { reasoning_tokens: 0 } });
    });
  });

  describe('clientUsageFromMeasured', () => {
    it('prompt, completion and their sum, nothing else', () => {
      expect(clientUsageFromMeasured(estimateLocally(req(), ANSWER, 'openai'))).toStrictEqual({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 });
    });
  });
});
