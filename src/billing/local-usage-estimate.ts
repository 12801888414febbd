import type { ChatRequest } from '../providers/chat-request';
import type { ProviderUsage } from '../providers/usage';
import { countPromptTokens, countTextTokens } from './local-token-count';
import { measuredFromProvider } from './measured-usage';
import type { MeasuredUsage } from './usage-record';

/**
 * Usage counted by the gateway itself, for an answer whose upstream never
 * reported usage (a stream cut off or abandoned before its usage chunk).
 */
export function estimateLocally(req: ChatRequest, outputText: string, family: string): MeasuredUsage {
  const estimate: ProviderUsage = {
    inputTokens: countPromptTokens(req.messages, req.tools),
    outputTokens: countTextTokens(outputText),
    reasoningTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: { ttl5m: 0, ttl1h: 0 },
    reportsCache: false,
    family,
    raw: {},
  };
  return { ...measuredFromProvider(estimate), measurement: { input: 'local_estimate', output: 'local_estimate' } };
}
