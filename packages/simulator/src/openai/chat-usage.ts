import type { Directives } from '../directives';
import { countTextTokens } from '../token-count';
import type { ChatAnswer } from './chat-answer';
import type { ChatMessage, ChatRequest, ContentPart } from './chat-request';

/**
 * Token accounting for Chat Completions, on top of the simulator's
 * four-characters-per-token rule (see token-count.ts):
 * - prompt: 3 tokens per message + its text (+ its name, + the name and
 *   arguments of its tool calls) + 85 per image part (OpenAI's flat price for
 *   a low-detail image) + the JSON of the tool definitions and of a
 *   `json_schema` format + 3 to prime the reply, as in OpenAI's own counting
 *   recipe;
 * - completion: the visible text, or each call's name and arguments, plus the
 *   hidden reasoning;
 * - cached: prompts past 1024 tokens report half of themselves, in blocks of
 *   128, as cached (at least 1024), as OpenAI's automatic prompt caching does
 *   for a repeated prefix;
 * - cache misses: only when asked with `cache_miss=N`, N prompt tokens (at
 *   most those not cached) reported as DeepSeek reports them, at the top
 *   level beside the cache hits, the rest of the prompt being neither.
 * @see https://platform.openai.com/docs/api-reference/chat
 * @see https://api-docs.deepseek.com/guides/kv_cache
 */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_cache_hit_tokens?: number;
  prompt_cache_miss_tokens?: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

const TOKENS_PER_MESSAGE = 3;
const REPLY_PRIMING_TOKENS = 3;
export const TOKENS_PER_IMAGE = 85;
const CACHE_MINIMUM_TOKENS = 1024;
const CACHE_BLOCK_TOKENS = 128;

export function chatUsage(request: ChatRequest, answer: ChatAnswer, directives: Pick<Directives, 'cacheMiss'> = {}): ChatUsage {
  const promptTokens = countPromptTokens(request);
  const completionTokens = countAnswerTokens(answer) + answer.reasoningTokens;
  const cached = cachedTokens(promptTokens);
  const misses = directives.cacheMiss === undefined ? {} : { prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: Math.min(directives.cacheMiss, promptTokens - cached) };
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    ...misses,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: answer.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

export function countPromptTokens(request: ChatRequest): number {
  const messages = request.messages.reduce((sum, message) => sum + countMessageTokens(message), 0);
  const tools = request.tools?.length ? countTextTokens(JSON.stringify(request.tools)) : 0;
  const format = request.response_format?.type === 'json_schema' ? countTextTokens(JSON.stringify(request.response_format)) : 0;
  return messages + tools + format + REPLY_PRIMING_TOKENS;
}

function countMessageTokens(message: ChatMessage): number {
  const name = message.name ? countTextTokens(message.name) : 0;
  const toolCalls = (message.tool_calls ?? []).reduce(
    (sum, call) => sum + countTextTokens(call.function?.name ?? '') + countTextTokens(call.function?.arguments ?? ''),
    0,
  );
  return TOKENS_PER_MESSAGE + countContentTokens(message.content) + name + toolCalls;
}

function countContentTokens(content: ChatMessage['content']): number {
  if (typeof content === 'string') return countTextTokens(content);
  if (!Array.isArray(content)) return 0;
  return content.reduce((sum, part) => sum + countPartTokens(part), 0);
}

function countPartTokens(part: ContentPart): number {
  if (part.type === 'image_url') return TOKENS_PER_IMAGE;
  return typeof part.text === 'string' ? countTextTokens(part.text) : 0;
}

export function countAnswerTokens(answer: ChatAnswer): number {
  if (answer.kind === 'text') return countTextTokens(answer.content);
  return answer.toolCalls.reduce((sum, call) => sum + countTextTokens(call.name) + countTextTokens(call.arguments), 0);
}

/** The part of a prompt reported as read from the prompt cache (see the rule above); also the Responses simulator's rule. */
export function cachedTokens(promptTokens: number): number {
  if (promptTokens <= CACHE_MINIMUM_TOKENS) return 0;
  const half = Math.floor(promptTokens / 2 / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
  return Math.max(CACHE_MINIMUM_TOKENS, half);
}
