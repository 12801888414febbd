import { countTextTokens } from '../billing/local-token-count';
import { measuredFromProvider } from '../billing/measured-usage';
import type { MeasuredUsage } from '../billing/usage-record';
import type { ChatUsage } from '../providers/chat-types';
import { totalCacheWrites, type ProviderUsage } from '../providers/usage';

/**
 * Some upstreams (Anthropic's Messages API) bill thinking inside
 * `output_tokens` without saying how much of it was thinking. When reasoning
 * text came back, its share is counted with the tokenizer so that the
 * reasoning dimension is still there; the output total stays the provider's.
 */
export function withReasoningEstimate(usage: ProviderUsage, reasoningText: string): { usage: ProviderUsage; estimated: boolean } {
  if (usage.reasoningTokens > 0 || !reasoningText) return { usage, estimated: false };
  return { usage: { ...usage, reasoningTokens: Math.min(usage.outputTokens, countTextTokens(reasoningText)) }, estimated: true };
}

/**
 * A stream that ended early, whose upstream had already reported the prompt
 * side (Anthropic does at the start): the provider's input figures, cache
 * reads and writes priced as such, plus the output counted locally.
 */
export function withLocalOutput(usage: ProviderUsage, outputText: string): MeasuredUsage {
  const outputTokens = Math.max(usage.outputTokens, countTextTokens(outputText));
  const measured = measuredFromProvider({ ...usage, outputTokens, reasoningTokens: 0 });
  return { ...measured, measurement: { input: 'provider', output: 'local_estimate' } };
}

/**
 * Usage in the OpenAI shape the client reads, with the cache details when the
 * upstream reported them: `cache_miss_tokens` is the upstream's own count
 * when it gives one (DeepSeek does), else what reads and writes leave of the
 * prompt.
 */
export function toClientUsage(usage: ProviderUsage): ChatUsage {
  const out: ChatUsage = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
  const rawPromptDetails = (usage.raw.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const rawCompletionDetails = (usage.raw.completion_tokens_details ?? {}) as Record<string, unknown>;
  if (usage.reportsCache) {
    const writes = totalCacheWrites(usage);
    out.prompt_tokens_details = {
      ...rawPromptDetails,
      cached_tokens: usage.cacheReadTokens,
      cache_write_tokens: writes,
      cache_miss_tokens: usage.cacheMissTokens ?? Math.max(0, usage.inputTokens - usage.cacheReadTokens - writes),
    };
  } else if (Object.keys(rawPromptDetails).length) {
    out.prompt_tokens_details = rawPromptDetails;
  }
  out.completion_tokens_details = { ...rawCompletionDetails, reasoning_tokens: usage.reasoningTokens };
  return out;
}

/** The same figures from a MeasuredUsage, for answers whose usage the gateway estimated. */
export function clientUsageFromMeasured(usage: MeasuredUsage): ChatUsage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}
