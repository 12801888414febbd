import type { ChatMessage } from '../chat-request';
import type { UpstreamChatRequest } from '../chat-adapter';

/** Gateway-level fields that are not OpenAI parameters; the effect of the reasoning ones arrives through `thinking`. */
const GATEWAY_ONLY_FIELDS = new Set(['thinking', 'reasoning', 'structuredOutputs']);

/**
 * The OpenAI request body for a call: the client's fields under the upstream
 * model name, without Anthropic's `cache_control` (on parts and tools).
 * Streams always ask for the usage chunk, so that every streamed request is
 * billed on the provider's own figures.
 */
export function toOpenAIChatBody(request: UpstreamChatRequest, upstreamModel: string, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(request)) {
    if (value === undefined || GATEWAY_ONLY_FIELDS.has(field)) continue;
    body[field] = value;
  }
  body.model = upstreamModel;
  body.messages = withoutGatewayFields(request.messages);
  if (request.tools?.some((tool) => tool.cache_control)) body.tools = request.tools.map(({ cache_control: _cache, ...tool }) => tool);
  if (request.thinking?.effort) body.reasoning_effort = request.thinking.effort;
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  } else {
    delete body.stream;
    delete body.stream_options;
  }
  return body;
}

/**
 * Removes what the gateway adds for other providers, which OpenAI's strict
 * validation would refuse: reasoning state on assistant turns (Anthropic
 * thinking blocks, Gemini signatures) and `cache_control` on content parts.
 * Messages that carry neither are passed as they are, without copying.
 */
function withoutGatewayFields(messages: ChatMessage[]): ChatMessage[] {
  let copy: ChatMessage[] | undefined;
  messages.forEach((message, i) => {
    const cleaned = cleanMessage(message);
    if (cleaned !== message) (copy ??= messages.slice())[i] = cleaned;
  });
  return copy ?? messages;
}

function cleanMessage(message: ChatMessage): ChatMessage {
  let out = message;
  if (message.role === 'assistant' && ('reasoning_details' in message || 'reasoning_content' in message)) {
    const { reasoning_details: _details, reasoning_content: _content, ...rest } = message;
    out = rest as ChatMessage;
  }
  const content = (out as { content?: unknown }).content;
  if (Array.isArray(content) && content.some((part) => part && typeof part === 'object' && 'cache_control' in part)) {
    out = { ...out, content: content.map(({ cache_control: _cache, ...part }) => part) } as ChatMessage;
  }
  return out;
}
