import type { ChatCompletionInput } from './types/chat-completion-input';

/**
 * The POST /v1/chat/completions body a chatCompletion subscription stands
 * for: the input's fields under their wire names, always streamed, and
 * always with the usage trailer, which becomes the last event.
 */
export function chatRequestBody(input: ChatCompletionInput): Record<string, unknown> {
  return {
    model: input.model,
    messages: input.messages,
    tools: input.tools,
    tool_choice: input.toolChoice,
    response_format: input.responseFormat,
    temperature: input.temperature,
    top_p: input.topP,
    max_tokens: input.maxTokens,
    reasoning: input.reasoning,
    stream: true,
    stream_options: { include_usage: true },
  };
}
