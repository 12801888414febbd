import type { ChatAssistantMessage, ChatCompletion, ChatToolCall, ReasoningDetail } from '../chat-types';
import type { AnthropicContentBlockWire, AnthropicMessageWire } from './anthropic-api';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';

type ToolUseBlock = Extract<AnthropicContentBlockWire, { type: 'tool_use' }>;

/**
 * A whole Messages answer as a canonical chat completion: text blocks are
 * the content, thinking blocks the reasoning text, and every thinking or
 * redacted thinking block is kept, signature and all, in `reasoning_details`
 * for the client to send back on its next turn. Usage stays out: the chat
 * service builds the client's figures from the ProviderUsage. When the
 * answer is the input of a forced `answerTool` (a `response_format` on a
 * model without structured outputs), that input is the content, as JSON
 * text, and no tool call shows.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
 */
export function convertAnthropicMessage(wire: AnthropicMessageWire, options: { answerTool?: string; now?: number } = {}): ChatCompletion {
  const { answerTool, now = Date.now() } = options;
  const blocks = wire.content;
  const answer = answerTool === undefined ? undefined : blocks.find((block): block is ToolUseBlock => block.type === 'tool_use' && block.name === answerTool);
  const texts = answer ? [JSON.stringify(answer.input ?? {})] : blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  const thoughts = blocks.flatMap((block) => (block.type === 'thinking' ? [block.thinking] : []));
  const reasoningDetails = blocks.flatMap(toReasoningDetail);
  const toolCalls = answerTool === undefined ? blocks.flatMap(toToolCall) : [];
  const message: ChatAssistantMessage = { role: 'assistant', content: texts.length ? texts.join('') : null };
  if (thoughts.length) message.reasoning_content = thoughts.join('');
  if (reasoningDetails.length) message.reasoning_details = reasoningDetails;
  if (toolCalls.length) message.tool_calls = toolCalls;
  return {
    id: wire.id,
    object: 'chat.completion',
    created: Math.floor(now / 1000),
    model: wire.model,
    choices: [{ index: 0, message, finish_reason: mapAnthropicStopReason(wire.stop_reason, answerTool !== undefined) }],
  };
}

/** A thinking block as the client keeps it; also used for a streamed block once it is complete. */
export function toReasoningDetail(block: AnthropicContentBlockWire): ReasoningDetail[] {
  if (block.type === 'thinking') return [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
  if (block.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: block.data }];
  return [];
}

function toToolCall(block: AnthropicContentBlockWire): ChatToolCall[] {
  if (block.type !== 'tool_use') return [];
  return [{ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } }];
}
