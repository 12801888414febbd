import type { ChatAdapter, ChatCall, ChatResult, ChatStreamEvent } from '../chat-adapter';
import { readBodyText, readSseEvents, releaseBody, sendUpstream, toStreamReadError, toUpstreamError } from '../http-client';
import { UpstreamError } from '../upstream-error';
import { convertGeminiUsage } from './convert-gemini-usage';
import { geminiErrorFromResponse, geminiStreamError } from './gemini-errors';
import { toGeminiRequest } from './gemini-request';
import { parseGeminiJson, readGeminiAnswer, toChatCompletion } from './gemini-response';
import { GeminiStreamState } from './gemini-stream';

/**
 * The Gemini API (Google AI Studio keys), native protocol:
 * `models/{model}:generateContent`, and `:streamGenerateContent?alt=sse`
 * for data-only SSE. The key goes in `x-goog-api-key`, never in the URL,
 * so that it cannot end up in a log line.
 * @see https://ai.google.dev/api/generate-content
 */
export const geminiChatAdapter: ChatAdapter = {
  async complete(call: ChatCall): Promise<ChatResult> {
    const res = await post(call, false);
    const text = await readBodyText(res.body).catch((err) => {
      throw toUpstreamError(err, call.signal);
    });
    if (res.status >= 400) throw geminiErrorFromResponse(res.status, res.headers, text);
    const wire = readGeminiAnswer(parseGeminiJson(text));
    return {
      completion: toChatCompletion(wire, call.upstreamModel),
      usage: wire.usageMetadata ? convertGeminiUsage(wire.usageMetadata) : null,
    };
  },

  async *stream(call: ChatCall): AsyncGenerator<ChatStreamEvent> {
    const res = await post(call, true);
    if (res.status >= 400) throw geminiErrorFromResponse(res.status, res.headers, await readBodyText(res.body, 1024 * 1024));
    const state = new GeminiStreamState(call.upstreamModel);
    let promptReported = false;
    try {
      for await (const event of readSseEvents(res.body)) {
        const json = parseGeminiJson(event.data, 'stream chunk');
        if (typeof json === 'object' && json !== null && 'error' in json) throw geminiStreamError(json);
        for (const chunk of state.toChunks(readGeminiAnswer(json, 'stream chunk'))) yield { type: 'chunk', chunk };
        // The first running total already has the exact prompt side: kept in case the stream is cut off.
        if (!promptReported && state.usage) {
          promptReported = true;
          yield { type: 'usage', usage: convertGeminiUsage(state.usage), partial: true };
        }
      }
    } catch (err) {
      throw toStreamReadError(err, call.signal);
    } finally {
      releaseBody(res.body, state.complete);
    }
    if (!state.complete) {
      if (call.signal.aborted) return;
      throw new UpstreamError('the upstream stream ended before the answer was complete', { status: 502, retryable: true, cause: 'stream_cut' });
    }
    if (state.usage) yield { type: 'usage', usage: convertGeminiUsage(state.usage) };
  },
};

async function post(call: ChatCall, stream: boolean) {
  const body = await toGeminiRequest(call.request, { signal: call.signal });
  const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return sendUpstream({
    url: `${call.provider.baseUrl}/models/${modelId(call.upstreamModel)}:${method}`,
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      'x-goog-api-key': call.provider.apiKey,
      ...call.provider.headers,
    },
    body: JSON.stringify(body),
    signal: call.signal,
    span: call.span,
    timeoutMs: call.provider.timeoutMs,
  });
}

/** A configured `models/gemini-2.5-flash` and a bare `gemini-2.5-flash` name the same model. */
function modelId(upstreamModel: string): string {
  return encodeURIComponent(upstreamModel.replace(/^models\//, ''));
}
