import { countTextTokens } from '../token-count';
import type { MessagesAnswer } from './messages-answer';
import { type ContentBlock, type MessagesRequest, contentBlocks, textOf } from './messages-request';
import type { PromptCache, PromptPiece } from './prompt-cache';

/**
 * Token accounting for Messages, on the simulator's four-characters-per-token
 * rule (see token-count.ts), in Anthropic's shape: `input_tokens` is only
 * the part of the prompt neither read from nor written to the cache, so the
 * whole prompt is `input_tokens + cache_creation_input_tokens +
 * cache_read_input_tokens`; thinking is billed inside `output_tokens` and
 * also reported as `output_tokens_details.thinking_tokens` (newer API
 * versions do).
 * - prompt: the JSON of each tool, each system text, and per message 3
 *   tokens plus its blocks (text, tool calls and results, thinking), an
 *   image a flat 1600 (about what a 1.15-megapixel image costs).
 * @see https://docs.anthropic.com/en/api/messages#response-usage
 * @see https://docs.anthropic.com/en/docs/build-with-claude/vision#calculate-image-costs
 */
export interface MessagesUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
  output_tokens_details: { thinking_tokens: number };
  service_tier: 'standard';
}

const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_IMAGE = 1600;

export function messagesUsage(request: MessagesRequest, answer: MessagesAnswer, promptCache: PromptCache): MessagesUsage {
  const pieces = promptPieces(request);
  const promptTokens = pieces.reduce((sum, piece) => sum + piece.tokens, 0);
  const cache = promptCache.use(request.model, pieces);
  const writes = cache.write5mTokens + cache.write1hTokens;
  return {
    input_tokens: promptTokens - cache.readTokens - writes,
    cache_creation_input_tokens: writes,
    cache_read_input_tokens: cache.readTokens,
    cache_creation: { ephemeral_5m_input_tokens: cache.write5mTokens, ephemeral_1h_input_tokens: cache.write1hTokens },
    output_tokens: answer.outputTokens,
    output_tokens_details: { thinking_tokens: answer.thinkingTokens },
    service_tier: 'standard',
  };
}

/** The prompt in cache order: tools, system, then each message's blocks (the first carrying the message's overhead). */
export function promptPieces(request: MessagesRequest): PromptPiece[] {
  const tools = (request.tools ?? []).map((tool): PromptPiece => {
    const json = JSON.stringify(tool);
    return { identity: json, tokens: countTextTokens(json), cacheControl: tool.cache_control };
  });
  const system = request.system === undefined ? [] : contentBlocks(request.system).map((block) => blockPiece('system', block));
  const messages = request.messages.flatMap((message) =>
    contentBlocks(message.content).map((block, index) => {
      const blockCost = blockPiece(message.role, block);
      return index === 0 ? { ...blockCost, tokens: blockCost.tokens + TOKENS_PER_MESSAGE } : blockCost;
    }),
  );
  return [...tools, ...system, ...messages];
}

function blockPiece(role: string, block: ContentBlock): PromptPiece {
  return { identity: `${role}:${JSON.stringify(block)}`, tokens: blockTokens(block), cacheControl: block.cache_control };
}

function blockTokens(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return countTextTokens(block.text ?? '');
    case 'image':
      return TOKENS_PER_IMAGE;
    case 'thinking':
      return countTextTokens(block.thinking ?? '');
    case 'tool_use':
      return countTextTokens(block.name ?? '') + countTextTokens(JSON.stringify(block.input ?? {}));
    case 'tool_result':
      return countTextTokens(textOf(block.content ?? ''));
    default:
      return countTextTokens(JSON.stringify(block));
  }
}
