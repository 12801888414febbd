import { countTextTokens } from '../billing/local-token-count';
import { measuredFromProvider } from '../billing/measured-usage';
import type { MeasuredUsage } from '../billing/usage-record';
import type { StreamedStrings } from '../providers/streamed-json-body';
import type { ResponsesRequest } from './responses-request-schema';

/** A low-detail image tile; an estimate when the upstream does not say. */
const TOKENS_PER_IMAGE = 85;

/**
 * The gateway's own count for a native Responses call whose upstream gave no
 * usage (a stream cut before `response.completed`): the prompt's text and
 * images, and what the answer had produced. Files inline count a token per
 * four bytes of their base64, a rough but never-zero figure (a file streamed
 * into the body by its full length, not its placeholder's).
 */
export function estimateResponsesUsage(req: ResponsesRequest, outputText: string, family: string, streamed?: StreamedStrings): MeasuredUsage {
  let input = countTextTokens(req.instructions ?? '');
  const visit = (value: unknown): void => {
    if (typeof value === 'string') return;
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const part = value as Record<string, unknown>;
    if (typeof part.text === 'string') input += countTextTokens(part.text);
    if (part.type === 'input_image') input += TOKENS_PER_IMAGE;
    if (typeof part.file_data === 'string') input += Math.ceil((streamed?.lengthOf(part.file_data) ?? part.file_data.length) / 4);
    if (typeof part.arguments === 'string') input += countTextTokens(part.arguments);
    if (typeof part.output === 'string') input += countTextTokens(part.output);
    visit(part.content);
  };
  if (typeof req.input === 'string') input += countTextTokens(req.input);
  else visit(req.input);
  const estimate = {
    inputTokens: input, outputTokens: countTextTokens(outputText), reasoningTokens: 0, cacheReadTokens: 0,
    cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: false, family, raw: {},
  };
  return { ...measuredFromProvider(estimate), measurement: { input: 'local_estimate', output: 'local_estimate' } };
}
