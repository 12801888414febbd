import type { ChatRequest } from './chat-request';
import type { ResolvedProvider } from './resolved-provider';
import type { ChatCompletion, ChatCompletionChunk } from './chat-types';
import type { ProviderUsage } from './usage';
import type { UpstreamScope } from './http-client';

/**
 * A chat request after the gateway's rules were applied: the client's
 * request, the upstream model name, and the reasoning settings decided for
 * this model family (each adapter expresses them in its own protocol).
 */
export interface UpstreamChatRequest extends ChatRequest {
  /**
   * Upstream reasoning controls decided by the gateway's rules (src/chat/reasoning/); absent
   * means leave the upstream default. `enabled: false` turns reasoning off where the model
   * allows it; `budgetTokens` is the token budget (Anthropic `budget_tokens`, Gemini
   * `thinkingBudget`); `effort` is the upstream's effort level, sent where there is no budget
   * (OpenAI `reasoning_effort`, Claude adaptive thinking's `output_config.effort`, Gemini 3
   * `thinkingLevel`); `includeThoughts` asks for the reasoning text (Gemini thought summaries).
   */
  thinking?: { enabled: boolean; budgetTokens?: number; effort?: string; includeThoughts?: boolean };
  /**
   * The route's model constrains its answer to a JSON schema itself (catalog
   * `capabilities.structured_outputs`: Anthropic's `output_config.format`).
   * Without it an Anthropic route answers `response_format` through a
   * forced tool call; other protocols have their own `response_format`.
   */
  structuredOutputs?: boolean;
}

export interface ChatCall extends UpstreamScope {
  provider: ResolvedProvider;
  upstreamModel: string;
  /** Model family from the catalog (`openai`, `openai-reasoning`, `anthropic`, `gemini`, ...). */
  family: string;
  request: UpstreamChatRequest;
}

export interface ChatResult {
  completion: ChatCompletion;
  usage: ProviderUsage | null;
}

export type ChatStreamEvent =
  | { type: 'chunk'; chunk: ChatCompletionChunk }
  /**
   * Usage as the upstream reported it. `partial`: figures known before the
   * answer is complete (the prompt side, at the start of an Anthropic
   * stream), kept in case the stream never reaches its final usage.
   */
  | { type: 'usage'; usage: ProviderUsage; partial?: boolean };

/** One upstream protocol. Errors are thrown as UpstreamError; nothing here knows about HTTP routes or billing. */
export interface ChatAdapter {
  complete(call: ChatCall): Promise<ChatResult>;
  /** Yields chunks in the canonical shape; resolves its first step only once the upstream accepted the call. */
  stream(call: ChatCall): AsyncGenerator<ChatStreamEvent>;
}
