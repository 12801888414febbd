import type { ProviderUsage } from '../usage';
import type { GeminiUsageMetadataWire } from './gemini-api';

/**
 * Gemini usage in the gateway's terms: `promptTokenCount` already holds the
 * cached tokens, and tokens of tool-use prompts are input too; thinking is
 * billed as output but reported apart from `candidatesTokenCount`, so the
 * two add up to the output. Gemini bills no cache writes per request
 * (explicit caches are paid by storage time), and always reports the
 * cache, zero by omission.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
export function convertGeminiUsage(raw: GeminiUsageMetadataWire): ProviderUsage {
  const thoughts = raw.thoughtsTokenCount ?? 0;
  return {
    inputTokens: (raw.promptTokenCount ?? 0) + (raw.toolUsePromptTokenCount ?? 0),
    outputTokens: (raw.candidatesTokenCount ?? 0) + thoughts,
    reasoningTokens: thoughts,
    cacheReadTokens: raw.cachedContentTokenCount ?? 0,
    cacheWriteTokens: { ttl5m: 0, ttl1h: 0 },
    reportsCache: true,
    family: 'gemini',
    raw,
  };
}
