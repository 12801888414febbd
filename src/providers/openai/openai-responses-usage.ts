import type { ProviderUsage } from '../usage';
import type { OpenAIResponsesUsageWire } from './openai-responses-api';

/**
 * Responses API usage: `cached_tokens` is part of `input_tokens` and
 * `reasoning_tokens` part of `output_tokens`, as in Chat Completions under
 * other names. A newer upstream may report `cache_write_tokens`, a write of
 * unstated lifetime. The cache is reported when `cached_tokens` is there at
 * all, so that its zero is a real zero.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export function convertOpenAIResponsesUsage(raw: OpenAIResponsesUsageWire): ProviderUsage {
  const cached = raw.input_tokens_details?.cached_tokens;
  return {
    inputTokens: raw.input_tokens ?? 0,
    outputTokens: raw.output_tokens ?? 0,
    reasoningTokens: raw.output_tokens_details?.reasoning_tokens ?? 0,
    cacheReadTokens: cached ?? 0,
    cacheWriteTokens: { ttl5m: raw.input_tokens_details?.cache_write_tokens ?? 0, ttl1h: 0 },
    reportsCache: cached !== undefined && cached !== null,
    family: 'openai',
    raw,
  };
}
