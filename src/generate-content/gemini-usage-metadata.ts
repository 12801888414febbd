import type { ChatUsage } from '../providers/chat-types';

/**
 * Usage in Gemini's meaning, from the chat core's client usage:
 * `promptTokenCount` holds the cached tokens (also shown apart as
 * `cachedContentTokenCount`), and `candidatesTokenCount` is the answer
 * without the thinking, which is `thoughtsTokenCount`; the total is their
 * sum. Zero counts are left out, as proto3 JSON does.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
export function usageMetadataOf(usage: ChatUsage): Record<string, number> {
  const thoughts = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const candidates = Math.max(0, usage.completion_tokens - thoughts);
  return {
    promptTokenCount: usage.prompt_tokens,
    ...(candidates > 0 ? { candidatesTokenCount: candidates } : {}),
    totalTokenCount: usage.prompt_tokens + usage.completion_tokens,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}
