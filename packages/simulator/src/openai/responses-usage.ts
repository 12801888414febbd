import { countTextTokens } from '../token-count';
import type { ChatAnswer } from './chat-answer';
import { cachedTokens, countAnswerTokens } from './chat-usage';
import { countAttachmentTokens } from './responses-file-inputs';
import { type ContentPart, type InputItem, type ResponsesRequest, inputItems, isMessageItem } from './responses-request';

/**
 * Token accounting for the Responses API, on the chat simulator's rules
 * (see chat-usage.ts): 3 tokens per input item and the instructions, plus
 * their text, plus each image's flat price and each inline file's bytes
 * (see responses-file-inputs.ts), plus the JSON of the tools and of a
 * `json_schema` format, plus 3 to prime the reply; the output is the visible
 * text or the calls' names and arguments, plus the hidden reasoning, which
 * `max_output_tokens` caps together. Cached input follows the chat rule.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

const TOKENS_PER_ITEM = 3;
const REPLY_PRIMING_TOKENS = 3;

export function responsesUsage(request: ResponsesRequest, answer: ChatAnswer): ResponsesUsage {
  const inputTokens = countInputTokens(request);
  const outputTokens = countAnswerTokens(answer) + answer.reasoningTokens;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: cachedTokens(inputTokens) },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: answer.reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}

export function countInputTokens(request: ResponsesRequest): number {
  const instructions = request.instructions ? TOKENS_PER_ITEM + countTextTokens(request.instructions) : 0;
  const items = inputItems(request).reduce((sum, item) => sum + TOKENS_PER_ITEM + countItemTokens(item), 0);
  const tools = request.tools?.length ? countTextTokens(JSON.stringify(request.tools)) : 0;
  const format = request.text?.format?.type === 'json_schema' ? countTextTokens(JSON.stringify(request.text.format)) : 0;
  return instructions + items + tools + format + REPLY_PRIMING_TOKENS;
}

function countItemTokens(item: InputItem): number {
  if (isMessageItem(item)) return countContentTokens(item.content);
  switch (item.type) {
    case 'function_call':
      return countTextTokens(item.name) + countTextTokens(item.arguments);
    case 'function_call_output':
      return countContentTokens(item.output);
    case 'reasoning':
      return item.summary.reduce((sum, part) => sum + countTextTokens(typeof part.text === 'string' ? part.text : ''), 0);
  }
}

function countContentTokens(content: string | ContentPart[]): number {
  if (typeof content === 'string') return countTextTokens(content);
  return content.reduce((sum, part) => sum + countPartTokens(part), 0);
}

function countPartTokens(part: ContentPart): number {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return countTextTokens(part.text);
    case 'refusal':
      return countTextTokens(part.refusal);
    default:
      return countAttachmentTokens(part);
  }
}
