import type { ChatCompletionChunk, ChatUsage } from '../providers/chat-types';
import type { ChatCompletionEvent, ChatCompletionUsage } from './types/chat-completion-event';

/**
 * The subscription event for one chunk of the chat service's stream; null
 * for a chunk that carries nothing (no choice and no usage). Subscriptions
 * never ask for more than one choice, so the first is the answer.
 */
export function chatChunkEvent(chunk: ChatCompletionChunk, requestId: string): ChatCompletionEvent | null {
  const choice = chunk.choices[0];
  if (!choice && !chunk.usage) return null;
  const delta = choice?.delta;
  return {
    requestId,
    contentDelta: delta?.content ?? null,
    reasoningDelta: delta?.reasoning_content ?? null,
    toolCallDeltas: (delta?.tool_calls ?? []).map((call) => ({
      index: call.index,
      id: call.id ?? null,
      name: call.function?.name ?? null,
      argumentsDelta: call.function?.arguments ?? null,
    })),
    finishReason: choice?.finish_reason ?? null,
    usage: chunk.usage ? eventUsage(chunk.usage) : null,
    // The service strips usage from content chunks and sends the usage trailer last, once the stream has finished.
    done: Boolean(chunk.usage),
  };
}

function eventUsage(usage: ChatUsage): ChatCompletionUsage {
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? null,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? null,
    cacheMissTokens: usage.prompt_tokens_details?.cache_miss_tokens ?? null,
  };
}
