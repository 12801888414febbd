import type { ProviderUsage } from '../usage';

interface OpenAIUsageWire {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null; [field: string]: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  [field: string]: unknown;
}

/**
 * OpenAI usage: `cached_tokens` is part of `prompt_tokens`, `reasoning_tokens`
 * part of `completion_tokens`. A newer upstream may report
 * `cache_write_tokens`, a write of unstated lifetime, and
 * `cache_miss_tokens`. DeepSeek-style upstreams report the cache at the top
 * level instead: `prompt_cache_hit_tokens` and `prompt_cache_miss_tokens`,
 * which together make up `prompt_tokens`; where both styles are present, the
 * details win. Fields read outside the schema are taken only when they are
 * token counts.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 * @see https://api-docs.deepseek.com/guides/kv_cache
 */
export function convertOpenAIUsage(raw: OpenAIUsageWire, family = 'openai'): ProviderUsage {
  const details = raw.prompt_tokens_details ?? undefined;
  const cacheReads = tokenCount(details?.cached_tokens) ?? tokenCount(raw.prompt_cache_hit_tokens);
  const cacheMisses = tokenCount(details?.cache_miss_tokens) ?? tokenCount(raw.prompt_cache_miss_tokens);
  return {
    inputTokens: raw.prompt_tokens ?? 0,
    outputTokens: raw.completion_tokens ?? 0,
    reasoningTokens: raw.completion_tokens_details?.reasoning_tokens ?? 0,
    cacheReadTokens: cacheReads ?? 0,
    cacheWriteTokens: { ttl5m: details?.cache_write_tokens ?? 0, ttl1h: 0 },
    ...(cacheMisses !== undefined ? { cacheMissTokens: cacheMisses } : {}),
    // An upstream that counts cache misses reports on the cache, so a missing hit count is a real zero.
    reportsCache: cacheReads !== undefined || cacheMisses !== undefined,
    family,
    raw: raw as Record<string, unknown>,
  };
}

function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
