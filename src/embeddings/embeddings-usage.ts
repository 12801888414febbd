import { countTextTokens } from '../billing/local-token-count';
import type { MeasuredUsage } from '../billing/usage-record';
import { measuredFromProvider } from '../billing/measured-usage';
import type { ProviderUsage } from '../providers/usage';
import type { EmbeddingsRequest } from './embeddings-request-schema';

/**
 * Embeddings bill input tokens only: the provider's count, or the gateway's
 * when the upstream gave none or one that is not valid (the provider
 * adapter validates it), said by `measurement.input: "local_estimate"`.
 */
export function embeddingsUsage(usage: ProviderUsage | null, input: EmbeddingsRequest['input']): MeasuredUsage {
  const reported: ProviderUsage = usage
    ? // Nothing but input is billed here: cache or output figures must not take tokens away from it.
      { ...usage, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: false }
    : {
        inputTokens: estimateInputTokens(input),
        outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: false, family: 'openai', raw: {},
      };
  const measured = measuredFromProvider(reported);
  return {
    ...measured,
    dimensions: measured.dimensions.filter((d) => d.name === 'input'),
    measurement: { input: usage ? 'provider' : 'local_estimate', output: 'unavailable' },
  };
}

/** Text is counted with the tokenizer; token arrays are already tokens. */
function estimateInputTokens(input: EmbeddingsRequest['input']): number {
  if (typeof input === 'string') return countTextTokens(input);
  let total = 0;
  for (const item of input) total += typeof item === 'number' ? 1 : typeof item === 'string' ? countTextTokens(item) : item.length;
  return total;
}
