import type { ProviderUsage } from '../usage';
import type { AnthropicUsageWire } from './anthropic-api';

/**
 * Anthropic usage: `input_tokens` counts only the uncached part of the
 * prompt, so the whole prompt is it plus the cache writes and reads. Cache
 * writes are split by lifetime in `cache_creation`; an upstream that sends
 * only the total wrote with the default lifetime, 5 minutes. Thinking is
 * billed inside `output_tokens`; Anthropic reports it separately only in the
 * newer `output_tokens_details.thinking_tokens`, and without it the part
 * stays 0 here (the gateway may estimate it from the thinking text later).
 * @see https://docs.anthropic.com/en/api/messages#response-usage
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance
 */
export function convertAnthropicUsage(raw: AnthropicUsageWire): ProviderUsage {
  const cacheReads = raw.cache_read_input_tokens ?? 0;
  const cacheWrites = raw.cache_creation_input_tokens ?? 0;
  const split = raw.cache_creation;
  return {
    inputTokens: (raw.input_tokens ?? 0) + cacheWrites + cacheReads,
    outputTokens: raw.output_tokens ?? 0,
    reasoningTokens: raw.output_tokens_details?.thinking_tokens ?? 0,
    cacheReadTokens: cacheReads,
    cacheWriteTokens: split
      ? { ttl5m: split.ephemeral_5m_input_tokens ?? 0, ttl1h: split.ephemeral_1h_input_tokens ?? 0 }
      : { ttl5m: cacheWrites, ttl1h: 0 },
    // api.anthropic.com always sends both cache fields; a compatible upstream that sends neither reported nothing.
    reportsCache: isCount(raw.cache_read_input_tokens) || isCount(raw.cache_creation_input_tokens),
    family: 'anthropic',
    raw: raw as Record<string, unknown>,
  };
}

/**
 * A stream's usage: `message_start` opens it, each `message_delta` repeats
 * the counts so far (cumulative, not increments), and may restate the input
 * and cache figures; later fields win.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
export function mergeAnthropicUsage(earlier: AnthropicUsageWire, later: AnthropicUsageWire | null | undefined): AnthropicUsageWire {
  if (!later) return earlier;
  const defined = Object.fromEntries(Object.entries(later).filter(([, value]) => value !== undefined && value !== null));
  return { ...earlier, ...defined };
}

function isCount(value: number | null | undefined): boolean {
  return typeof value === 'number';
}
