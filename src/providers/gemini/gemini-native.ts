import { z } from 'zod';
import { readBodyText, readSseEvents, releaseBody, sendUpstream, toStreamReadError, toUpstreamError, type UpstreamScope } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import type { ResolvedProvider } from '../resolved-provider';
import { UpstreamError } from '../upstream-error';
import type { ProviderUsage } from '../usage';
import { convertGeminiUsage } from './convert-gemini-usage';
import { geminiErrorFromResponse, geminiStreamError, malformedGeminiAnswer } from './gemini-errors';
import { parseGeminiJson, readGeminiAnswer } from './gemini-response';
import { GeminiStreamState } from './gemini-stream';

/** A request in Gemini's own shape, for an upstream that speaks it: the body goes as the caller built it. */
export interface GeminiNativeCall extends UpstreamScope {
  provider: ResolvedProvider;
  upstreamModel: string;
  body: Record<string, unknown>;
}

/** A `GenerateContentResponse` as the upstream sent it (checked against the wire schema), and its usage in the gateway's terms. */
export interface GeminiNativeAnswer {
  response: Record<string, unknown>;
  usage: ProviderUsage | null;
}

export type GeminiNativeStreamEvent = { type: 'chunk'; chunk: Record<string, unknown> } | { type: 'usage'; usage: ProviderUsage; partial?: boolean };

/**
 * `generateContent` passed through: the answer is the upstream's, checked
 * against the same wire schema the chat adapter reads, its usage converted
 * by the same `convertGeminiUsage`. A blocked prompt (`promptFeedback`, no
 * candidates) is an answer in this dialect, not an error.
 * @see https://ai.google.dev/api/generate-content#method:-models.generatecontent
 */
export async function generateContentNative(call: GeminiNativeCall): Promise<GeminiNativeAnswer> {
  const res = await post(call, 'generateContent');
  const text = await readBodyText(res.body).catch((err) => {
    throw toUpstreamError(err, call.signal);
  });
  if (res.status >= 400) throw geminiErrorFromResponse(res.status, res.headers, text);
  const json = parseGeminiJson(text);
  const wire = readGeminiAnswer(json);
  return { response: json as Record<string, unknown>, usage: wire.usageMetadata ? convertGeminiUsage(wire.usageMetadata) : null };
}

/**
 * `streamGenerateContent?alt=sse` passed through chunk by chunk. Each chunk
 * is checked as the chat adapter checks it (GeminiStreamState), which also
 * tells a whole stream from a cut one; Gemini's usage comes as running
 * totals, so the first is kept as partial (the prompt side) and the last is
 * the call's.
 */
export async function* streamGenerateContentNative(call: GeminiNativeCall): AsyncGenerator<GeminiNativeStreamEvent> {
  const res = await post(call, 'streamGenerateContent?alt=sse');
  if (res.status >= 400) throw geminiErrorFromResponse(res.status, res.headers, await readBodyText(res.body, 1024 * 1024));
  const state = new GeminiStreamState(call.upstreamModel);
  let promptReported = false;
  let blocked = false;
  try {
    for await (const event of readSseEvents(res.body)) {
      const json = parseGeminiJson(event.data, 'stream chunk');
      if (typeof json === 'object' && json !== null && 'error' in json) throw geminiStreamError(json);
      const wire = readGeminiAnswer(json, 'stream chunk');
      // A blocked prompt is the whole answer: one chunk with its feedback and no candidates.
      if (wire.promptFeedback?.blockReason && !wire.candidates?.length) blocked = true;
      else state.toChunks(wire);
      if (wire.usageMetadata && !promptReported) {
        promptReported = true;
        yield { type: 'usage', usage: convertGeminiUsage(wire.usageMetadata), partial: true };
      }
      yield { type: 'chunk', chunk: json as Record<string, unknown> };
    }
  } catch (err) {
    throw toStreamReadError(err, call.signal);
  } finally {
    releaseBody(res.body, state.complete || blocked);
  }
  if (!state.complete && !blocked) {
    if (call.signal.aborted) return;
    throw new UpstreamError('the upstream stream ended before the answer was complete', { status: 502, retryable: true, cause: 'stream_cut' });
  }
  if (state.usage) yield { type: 'usage', usage: convertGeminiUsage(state.usage) };
}

const countTokensAnswerSchema = z.looseObject({ totalTokens: z.number().int().nonnegative().nullish() });

/**
 * `countTokens`: free at Google, answered as the upstream counted.
 * @see https://ai.google.dev/api/tokens#method:-models.counttokens
 */
export async function countTokensNative(call: GeminiNativeCall): Promise<Record<string, unknown>> {
  const res = await post(call, 'countTokens');
  const text = await readBodyText(res.body).catch((err) => {
    throw toUpstreamError(err, call.signal);
  });
  if (res.status >= 400) throw geminiErrorFromResponse(res.status, res.headers, text);
  const json = parseJsonOrUndefined(text);
  const parsed = countTokensAnswerSchema.safeParse(json);
  if (!parsed.success) throw malformedGeminiAnswer('it does not have the countTokens shape');
  return { ...parsed.data, totalTokens: parsed.data.totalTokens ?? 0 };
}

function post(call: GeminiNativeCall, method: string) {
  const stream = method.startsWith('stream');
  return sendUpstream({
    url: `${call.provider.baseUrl}/models/${encodeURIComponent(call.upstreamModel.replace(/^models\//, ''))}:${method}`,
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      'x-goog-api-key': call.provider.apiKey,
      ...call.provider.headers,
    },
    body: JSON.stringify(call.body),
    signal: call.signal,
    span: call.span,
    timeoutMs: call.provider.timeoutMs,
  });
}
