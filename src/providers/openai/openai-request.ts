import type { UpstreamChatRequest } from '../chat-adapter';

/** Gateway-level fields that are not OpenAI parameters; their effect arrives through `thinking`. */
const GATEWAY_ONLY_FIELDS = new Set(['thinking', 'reasoning']);

/**
 * The OpenAI request body for a call: the client's fields under the upstream
 * model name. Streams always ask for the usage chunk, so that every streamed
 * request is billed on the provider's own figures.
 */
export function toOpenAIChatBody(request: UpstreamChatRequest, upstreamModel: string, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(request)) {
    if (value === undefined || GATEWAY_ONLY_FIELDS.has(field)) continue;
    body[field] = value;
  }
  body.model = upstreamModel;
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
