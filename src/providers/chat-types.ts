/**
 * The gateway's canonical chat shapes: the OpenAI Chat Completions wire shape,
 * which is also what clients receive. Every adapter converts its upstream's
 * answer into these, so the chat service and its writers (SSE, GraphQL) know
 * one format.
 */

import type { ReasoningDetail } from './chat-request';

export type { ReasoningDetail };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatAssistantMessage {
  role: 'assistant';
  content: string | null;
  reasoning_content?: string | null;
  /** Signed reasoning state to send back unchanged on the next turn (see ReasoningDetail). */
  reasoning_details?: ReasoningDetail[];
  tool_calls?: ChatToolCall[];
  refusal?: string | null;
  [extra: string]: unknown;
}

export interface ChatChoice {
  index: number;
  message: ChatAssistantMessage;
  finish_reason: string | null;
  logprobs?: unknown;
}

export interface ChatDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning_content?: string | null;
  /** Whole reasoning-state items, each sent once when complete; clients concatenate them like tool calls. */
  reasoning_details?: ReasoningDetail[];
  tool_calls?: ChatToolCallDelta[];
  refusal?: string | null;
  [extra: string]: unknown;
}

export interface ChatChunkChoice {
  index: number;
  delta: ChatDelta;
  finish_reason: string | null;
  logprobs?: unknown;
}

/** Usage in the client-facing OpenAI shape. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: {
    cached_tokens?: number | null;
    cache_write_tokens?: number | null;
    cache_miss_tokens?: number | null;
    [extra: string]: unknown;
  };
  completion_tokens_details?: { reasoning_tokens?: number | null; [extra: string]: unknown };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatChoice[];
  usage?: ChatUsage | null;
  system_fingerprint?: string | null;
  service_tier?: string | null;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChatChunkChoice[];
  usage?: ChatUsage | null;
  system_fingerprint?: string | null;
  service_tier?: string | null;
}
