import type { ProviderUsage } from '../usage';

interface OpenAIUsageWire {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  [field: string]: unknown;
}

/**
 * OpenAI usage: `cached_tokens` is part of `prompt_tokens`, `reasoning_tokens`
 * part of `completion_tokens`. A newer upstream may
 * report `cache_write_tokens`, a write of unstated lifetime.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
export function convertOpenAIUsage(raw: OpenAIUsageWire, family = 'openai'): ProviderUsage {
  const details = raw.prompt_tokens_details ?? undefined;
  return {
    inputTokens: raw.prompt_tokens ?? 0,
    outputTokens: raw.completion_tokens ?? 0,
    reasoningTokens: raw.completion_tokens_details?.reasoning_tokens ?? 0,
    cacheReadTokens: details?.cached_tokens ?? 0,
    cacheWriteTokens: { ttl5m: details?.cache_write_tokens ?? 0, ttl1h: 0 },
    reportsCache: details?.cached_tokens !== undefined && details?.cached_tokens !== null,
    family,
    raw: raw as Record<string, unknown>,
  };
}
