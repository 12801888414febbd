import { countTextTokens } from '../billing/local-token-count';
import type { MeasuredUsage } from '../billing/usage-record';
import { measuredFromProvider } from '../billing/measured-usage';
import type { ProviderUsage } from '../providers/usage';
import type { EmbeddingsRequest } from './embeddings-request-schema';

/** Embeddings bill input tokens only: the provider's count, or the gateway's when the upstream gave none. */
export function embeddingsUsage(usage: ProviderUsage | null, input: EmbeddingsRequest['input']): MeasuredUsage {
  const reported: ProviderUsage = usage ?? {
    inputTokens: countTextTokens(typeof input === 'string' ? input : JSON.stringify(input)),
    outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: false, family: 'openai', raw: {},
  };
  const measured = measuredFromProvider({ ...reported, outputTokens: 0 });
  return {
    ...measured,
    dimensions: measured.dimensions.filter((d) => d.name === 'input'),
    measurement: { input: usage ? 'provider' : 'local_estimate', output: 'unavailable' },
  };
}
