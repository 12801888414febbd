import type { ChatAdapter, ChatCall, ChatResult, ChatStreamEvent } from '../chat-adapter';
import type { ChatCompletion, ChatCompletionChunk } from '../chat-types';
import { readBodyText, readSseEvents, releaseBody, toStreamReadError, toUpstreamError } from '../http-client';
import { UpstreamError } from '../upstream-error';
import { openAIChatChunkSchema, openAIChatCompletionSchema } from './openai-api';
import { openAIErrorFromResponse, openAIStreamCut, openAIStreamError } from './openai-errors';
import { postOpenAIJson } from './openai-post';
import { toOpenAIChatBody } from './openai-request';
import { toXaiChatCall } from './xai-chat-fields';
import { convertOpenAIUsage } from './openai-usage';
import { parseJsonOrUndefined } from '../parse-json';

/**
 * OpenAI Chat Completions, and any upstream that speaks it (vLLM, Ollama,
 * xAI, the OpenAI-compatible endpoints of other providers).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export const openAIChatAdapter: ChatAdapter = {
  async complete(call: ChatCall): Promise<ChatResult> {
    const res = await post(call, false);
    const text = await readBodyText(res.body).catch((err) => {
      throw toUpstreamError(err, call.signal);
    });
    if (res.status >= 400) throw openAIErrorFromResponse(res.status, res.headers, text);
    const parsed = openAIChatCompletionSchema.safeParse(parseJsonOrUndefined(text));
    if (!parsed.success) throw malformed(parsed.error.message);
    const wire = parsed.data;
    return {
      completion: wire as unknown as ChatCompletion,
      usage: wire.usage ? convertOpenAIUsage(wire.usage, familyLabel(call)) : null,
    };
  },

  async *stream(call: ChatCall): AsyncGenerator<ChatStreamEvent> {
    const res = await post(call, true);
    if (res.status >= 400) throw openAIErrorFromResponse(res.status, res.headers, await readBodyText(res.body, 1024 * 1024));
    let sawDone = false;
    let sawFinish = false;
    try {
      for await (const event of readSseEvents(res.body)) {
        if (event.data === '[DONE]') {
          sawDone = true;
          break;
        }
        const payload = parseJsonOrUndefined(event.data) as { error?: unknown } | undefined;
        if (payload && typeof payload === 'object' && 'error' in payload) throw openAIStreamError(payload);
        if (event.event === 'error') throw openAIStreamError({ error: payload });
        const parsed = openAIChatChunkSchema.safeParse(payload);
        if (!parsed.success) throw malformed(parsed.error.message);
        const chunk = parsed.data;
        if (chunk.usage) yield { type: 'usage', usage: convertOpenAIUsage(chunk.usage, familyLabel(call)) };
        if (chunk.choices.length) {
          if (chunk.choices.some((c) => c.finish_reason)) sawFinish = true;
          yield { type: 'chunk', chunk: { ...chunk, usage: undefined } as unknown as ChatCompletionChunk };
        }
      }
    } catch (err) {
      throw toStreamReadError(err, call.signal);
    } finally {
      releaseBody(res.body, sawDone);
    }
    if (!sawDone && !sawFinish && !call.signal.aborted) {
      throw openAIStreamCut();
    }
  },
};

function post(call: ChatCall, stream: boolean) {
  const body = toOpenAIChatBody(call.request, call.upstreamModel, stream);
  const target = call.provider.type === 'xai' ? toXaiChatCall(call.provider, body) : { provider: call.provider, body };
  return postOpenAIJson(target.provider, '/chat/completions', target.body, stream, call);
}

function familyLabel(call: ChatCall): string {
  return call.provider.type === 'xai' ? 'xai' : 'openai';
}


function malformed(detail: string): UpstreamError {
  return new UpstreamError(`the upstream answer does not have the OpenAI chat shape: ${detail.slice(0, 300)}`, { status: 502, retryable: true });
}
