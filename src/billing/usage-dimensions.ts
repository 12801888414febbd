import type { ProviderUsage } from '../providers/usage';

export interface UsageDimension {
  name: string;
  quantity: number;
  unit: string;
}

/**
 * Splits reported usage into billable dimensions that partition it: every
 * token is in exactly one dimension, so no token is billed twice and the
 * dimensions add up to the prompt and the completion exactly.
 *
 * The prompt is cache reads, cache writes (by lifetime), cache misses when
 * the upstream counts them (they are a dimension of their own, priced apart
 * where the catalog says so, instead of plain input), and plain input for
 * the rest. The completion is output and reasoning.
 *
 * An upstream whose parts add up to more than its total (reads and writes
 * beyond the prompt, reasoning beyond the completion) is taken at its total:
 * each part is capped at what the parts before it left, in the order above,
 * so that no quantity is negative and no token is billed twice.
 */
export function dimensionsFromUsage(usage: ProviderUsage): UsageDimension[] {
  const prompt = new Remainder(usage.inputTokens);
  const cacheRead = prompt.take(usage.cacheReadTokens);
  const write5m = prompt.take(usage.cacheWriteTokens.ttl5m);
  const write1h = prompt.take(usage.cacheWriteTokens.ttl1h);
  const cacheMiss = usage.cacheMissTokens === undefined ? undefined : prompt.take(usage.cacheMissTokens);
  const completion = new Remainder(usage.outputTokens);
  const reasoning = completion.take(usage.reasoningTokens);

  const dims: UsageDimension[] = [tokens('input', prompt.left)];
  if (cacheRead || usage.reportsCache) dims.push(tokens('cache_read', cacheRead));
  if (write5m) dims.push(tokens('cache_write_5m', write5m));
  if (write1h) dims.push(tokens('cache_write_1h', write1h));
  // A reported zero is a measurement, like a reported zero of cache reads.
  if (cacheMiss !== undefined) dims.push(tokens('cache_miss', cacheMiss));
  dims.push(tokens('output', completion.left));
  if (usage.reasoningTokens) dims.push(tokens('reasoning', reasoning));
  return dims;
}

/** A total handed out part by part, never below zero. */
class Remainder {
  left: number;

  constructor(total: number) {
    this.left = Math.max(0, total);
  }

  /** As much of `wanted` as is left. */
  take(wanted: number): number {
    const taken = Math.min(Math.max(0, wanted), this.left);
    this.left -= taken;
    return taken;
  }
}

function tokens(name: string, quantity: number): UsageDimension {
  return { name, quantity, unit: 'tokens' };
}
