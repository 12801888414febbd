/**
 * Token usage as an upstream reported it, normalised across providers. Every
 * count is a subset rule made explicit: `inputTokens` is the whole prompt
 * (cache reads and writes included) and `outputTokens` the whole completion
 * (reasoning included), so that the dimensions below partition them exactly.
 */
export interface ProviderUsage {
  inputTokens: number;
  outputTokens: number;
  /** Part of `outputTokens` spent on reasoning. */
  reasoningTokens: number;
  /** Part of `inputTokens` read from the prompt cache. */
  cacheReadTokens: number;
  /** Part of `inputTokens` written to the prompt cache, by cache lifetime (a write of unstated lifetime counts as 5 minutes). */
  cacheWriteTokens: { ttl5m: number; ttl1h: number };
  /**
   * Part of `inputTokens` the upstream says missed the cache, when it says so
   * (DeepSeek's `prompt_cache_miss_tokens`); absent when it does not, and then
   * the prompt's uncached part is plain input.
   */
  cacheMissTokens?: number;
  /** Whether the upstream reported cache figures at all (so zeros are real zeros). */
  reportsCache: boolean;
  /** Provider family label and the upstream usage object exactly as received. */
  family: string;
  raw: Record<string, unknown>;
}

export function totalCacheWrites(usage: ProviderUsage): number {
  return usage.cacheWriteTokens.ttl5m + usage.cacheWriteTokens.ttl1h;
}
