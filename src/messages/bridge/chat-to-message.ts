import type { ChatCompletion, ReasoningDetail } from '../../providers/chat-types';
import { messageUsageOf } from '../message-usage';
import { encodeReasoningState } from '../../chat/carried-reasoning-state';
import { stopReasonOf } from './stop-reason';

/**
 * A chat completion as an Anthropic Message: thinking first (the signed
 * thinking an Anthropic upstream returned, Gemini's thought signatures
 * carried in a thinking block's signature, else the reasoning text
 * unsigned), then the text, then the tool calls as `tool_use` blocks whose
 * input is the parsed arguments.
 * @see https://docs.anthropic.com/en/api/messages#response-content
 */
export function toMessage(completion: ChatCompletion, id: string, model: string): Record<string, unknown> {
  const choice = completion.choices[0];
  const m = choice?.message;
  const content: Array<Record<string, unknown>> = [...thinkingBlocks(m?.reasoning_content ?? '', m?.reasoning_details ?? [])];
  if (m?.content) content.push({ type: 'text', text: m.content });
  for (const call of m?.tool_calls ?? []) content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parsedArguments(call.function.arguments) });
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReasonOf(choice?.finish_reason),
    stop_sequence: null,
    usage: messageUsageOf(completion.usage),
  };
}

/** The thinking blocks of one answer: each reasoning-state item as its block; reasoning text no item carries, as an unsigned block first. */
export function thinkingBlocks(reasoningText: string, details: ReasoningDetail[]): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  let textCarried = details.some((d) => d.type === 'thinking');
  for (const detail of details) {
    if (detail.type === 'thinking') blocks.push({ type: 'thinking', thinking: detail.thinking, signature: detail.signature });
    else if (detail.type === 'redacted_thinking') blocks.push({ type: 'redacted_thinking', data: detail.data });
    else {
      blocks.push({ type: 'thinking', thinking: textCarried ? '' : reasoningText, signature: encodeReasoningState([detail]) });
      textCarried = true;
    }
  }
  if (!textCarried && reasoningText) blocks.unshift({ type: 'thinking', thinking: reasoningText, signature: '' });
  return blocks;
}

/** Tool arguments as the object Anthropic's `input` is; arguments that are not a JSON object are kept under `arguments`. */
export function parsedArguments(args: string): unknown {
  try {
    const parsed: unknown = JSON.parse(args || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : { arguments: args };
  } catch {
    return { arguments: args };
  }
}
