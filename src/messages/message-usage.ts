import type { ChatUsage } from '../providers/chat-types';

/**
 * Usage in Anthropic's meaning: `input_tokens` is the part of the prompt
 * neither read from nor written to the cache, `cache_read_input_tokens` and
 * `cache_creation_input_tokens` the rest, `output_tokens` the whole answer,
 * thinking included.
 * @see https://docs.anthropic.com/en/api/messages#response-usage
 */
export interface MessageUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/** From the chat core's usage (the OpenAI shape, where the prompt includes the cache's part). */
export function messageUsageOf(usage: ChatUsage | null | undefined): MessageUsage {
  const details = usage?.prompt_tokens_details;
  const reads = details?.cached_tokens ?? 0;
  const writes = details?.cache_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - reads - writes),
    cache_creation_input_tokens: writes,
    cache_read_input_tokens: reads,
    output_tokens: usage?.completion_tokens ?? 0,
  };
}
