import { countTextTokens } from '../billing/local-token-count';
import { measuredFromProvider } from '../billing/measured-usage';
import type { MeasuredUsage } from '../billing/usage-record';
import type { MessagesRequest } from './messages-request-schema';

/** A low-detail image tile; an estimate when the upstream does not say. */
const TOKENS_PER_IMAGE = 85;

/**
 * The gateway's own count for a native Messages call whose upstream gave no
 * usage (a stream cut before its first event, a call the client left): the
 * prompt's text, tool calls and results, thinking and images, and what the
 * answer had produced. A document inline counts a token per four bytes of
 * its base64, a rough but never-zero figure.
 */
export function estimateMessagesUsage(req: MessagesRequest, outputText: string, family: string): MeasuredUsage {
  let input = 0;
  const visit = (value: unknown, depth: number): void => {
    if (depth > 128 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((item) => visit(item, depth + 1));
    const block = value as Record<string, unknown>;
    if (typeof block.text === 'string') input += countTextTokens(block.text);
    if (typeof block.thinking === 'string') input += countTextTokens(block.thinking);
    if (block.type === 'image') input += TOKENS_PER_IMAGE;
    if (block.type === 'tool_use') input += countTextTokens(JSON.stringify(block.input ?? {}));
    if (typeof block.content === 'string') input += countTextTokens(block.content);
    else visit(block.content, depth + 1);
    const source = block.source as { data?: unknown } | undefined;
    if (block.type === 'document' && typeof source?.data === 'string') input += Math.ceil(source.data.length / 4);
  };
  if (typeof req.system === 'string') input += countTextTokens(req.system);
  else visit(req.system, 0);
  visit(req.messages, 0);
  if (req.tools?.length) input += countTextTokens(JSON.stringify(req.tools));
  const estimate = {
    inputTokens: input, outputTokens: countTextTokens(outputText), reasoningTokens: 0, cacheReadTokens: 0,
    cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: false, family, raw: {},
  };
  return { ...measuredFromProvider(estimate), measurement: { input: 'local_estimate', output: 'local_estimate' } };
}
