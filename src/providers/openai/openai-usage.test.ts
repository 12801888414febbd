import { convertOpenAIUsage } from './openai-usage';

describe('convertOpenAIUsage', () => {
  it('OpenAI: cached tokens are cache reads, reasoning is part of the completion, no miss count of its own', () => {
    const raw = { prompt_tokens: 2006, completion_tokens: 300, total_tokens: 2306, prompt_tokens_details: { cached_tokens: 1920 }, completion_tokens_details: { reasoning_tokens: 256 } };
    const usage = convertOpenAIUsage(raw);
    expect(usage).toStrictEqual({
      inputTokens: 2006, outputTokens: 300, reasoningTokens: 256, cacheReadTokens: 1920,
      cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'openai', raw,
    });
    expect(usage).not.toHaveProperty('cacheMissTokens');
  });

  it('DeepSeek: prompt_cache_hit_tokens and prompt_cache_miss_tokens at the top level are the cache reads and misses', () => {
    const raw = { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020, prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 360 };
    expect(convertOpenAIUsage(raw, 'deepseek')).toStrictEqual({
      inputTokens: 1000, outputTokens: 20, reasoningTokens: 0, cacheReadTokens: 640, cacheMissTokens: 360,
      cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'deepseek', raw,
    });
  });

  it('a miss count alone still reports on the cache: zero reads are a real zero', () => {
    expect(convertOpenAIUsage({ prompt_tokens: 50, completion_tokens: 1, prompt_cache_miss_tokens: 50 })).toMatchObject({ cacheReadTokens: 0, cacheMissTokens: 50, reportsCache: true });
  });

  it('prompt_tokens_details.cache_miss_tokens is read too, and the details win over the top-level fields', () => {
    const raw = {
      prompt_tokens: 900, completion_tokens: 5, prompt_cache_hit_tokens: 1, prompt_cache_miss_tokens: 2,
      prompt_tokens_details: { cached_tokens: 500, cache_write_tokens: 100, cache_miss_tokens: 300 },
    };
    expect(convertOpenAIUsage(raw)).toMatchObject({ cacheReadTokens: 500, cacheWriteTokens: { ttl5m: 100, ttl1h: 0 }, cacheMissTokens: 300, reportsCache: true });
  });

  it.each<[string, Record<string, unknown>]>([
    ['nothing about the cache', { prompt_tokens: 9, completion_tokens: 3 }],
    ['a null miss count', { prompt_tokens: 9, completion_tokens: 3, prompt_cache_miss_tokens: null }],
    ['a miss count that is not a token count', { prompt_tokens: 9, completion_tokens: 3, prompt_cache_miss_tokens: '4', prompt_cache_hit_tokens: -1 }],
  ])('%s: no cache report and no miss count', (_, raw) => {
    const usage = convertOpenAIUsage(raw);
    expect(usage.reportsCache).toBe(false);
    expect(usage.cacheReadTokens).toBe(0);
    expect(usage).not.toHaveProperty('cacheMissTokens');
  });
});
