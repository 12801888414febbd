import { totalCacheWrites, type ProviderUsage } from '../providers/usage';

export interface UsageDimension {
  name: string;
  quantity: number;
  unit: string;
}

/**
 * Splits reported usage into billable dimensions that partition it: every
 * token is in exactly one dimension, so no token is billed twice.
 */
export function dimensionsFromUsage(usage: ProviderUsage): UsageDimension[] {
  const cacheRead = usage.cacheReadTokens;
  const writes = usage.cacheWriteTokens;
  const dims: UsageDimension[] = [
    { name: 'input', quantity: Math.max(0, usage.inputTokens - cacheRead - totalCacheWrites(usage)), unit: 'tokens' },
  ];
  if (cacheRead || usage.reportsCache) dims.push({ name: 'cache_read', quantity: cacheRead, unit: 'tokens' });
  if (writes.ttl5m) dims.push({ name: 'cache_write_5m', quantity: writes.ttl5m, unit: 'tokens' });
  if (writes.ttl1h) dims.push({ name: 'cache_write_1h', quantity: writes.ttl1h, unit: 'tokens' });
  dims.push({ name: 'output', quantity: Math.max(0, usage.outputTokens - usage.reasoningTokens), unit: 'tokens' });
  if (usage.reasoningTokens) dims.push({ name: 'reasoning', quantity: usage.reasoningTokens, unit: 'tokens' });
  return dims;
}
