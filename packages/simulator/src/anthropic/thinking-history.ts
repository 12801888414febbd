import { type AnthropicError, invalidRedactedThinking, invalidThinkingSignature, thinkingBlockExpected } from './errors';
import { type MessagesRequest, contentBlocks } from './messages-request';
import { isValidThinkingSignature, unsealRedactedThinking } from './thinking-signature';

/**
 * The check that makes a gateway keep the reasoning state of a tool round
 * trip: with thinking on, an assistant turn that used tools must start with
 * the thinking blocks it was answered with, and every thinking block sent
 * back must be the one the model signed. With thinking off, Anthropic drops
 * earlier thinking blocks unread, and so does this check.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
 */
export function thinkingHistoryError(request: MessagesRequest, thinkingOn: boolean): AnthropicError | undefined {
  if (!thinkingOn) return undefined;
  for (const [messageIndex, message] of request.messages.entries()) {
    if (message.role !== 'assistant') continue;
    const blocks = contentBlocks(message.content);
    const first = blocks[0];
    if (first && blocks.some((block) => block.type === 'tool_use') && !isThinkingBlock(first.type)) return thinkingBlockExpected(messageIndex, first.type);
    for (const [blockIndex, block] of blocks.entries()) {
      if (block.type === 'thinking' && !isValidThinkingSignature(block.thinking, block.signature)) return invalidThinkingSignature(messageIndex, blockIndex);
      if (block.type === 'redacted_thinking' && unsealRedactedThinking(block.data) === undefined) return invalidRedactedThinking(messageIndex, blockIndex);
    }
  }
  return undefined;
}

function isThinkingBlock(type: string): boolean {
  return type === 'thinking' || type === 'redacted_thinking';
}
