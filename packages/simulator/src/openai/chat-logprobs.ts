import { type Random, hashString, seededRandom } from '../deterministic-random';
import type { Directives } from '../directives';
import type { EnumChoice } from '../structured-output';
import { enumToken } from '../structured-text';
import { splitIntoTokens } from '../text-tokens';
import type { ChatAnswer } from './chat-answer';
import type { ChatRequest } from './chat-request';
import { type OpenAIError, invalidRequest } from './errors';

/**
 * `choices[].logprobs` as OpenAI sends it for `logprobs: true`: one entry
 * per token of the message, the tokens joining back to its `content`, each
 * with its UTF-8 `bytes` and `top_logprobs` alternatives (`top_logprobs` of
 * them, 0 to 20: the token itself first, then less likely ones).
 *
 * Where a structured answer chose among enum values the token is the
 * opening quote glued to the value (`"yes`), and its alternatives are the
 * enum's other values in the same form, with the log of the probabilities
 * the answer was built with (see structured-output.ts), so that a client
 * reading them finds the same odds as the numbers in the JSON. Everywhere
 * else the model was nearly sure of its token, and the alternatives are
 * made-up words, all deterministic for the answer.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */

export interface TopLogprob {
  token: string;
  logprob: number;
  bytes: number[];
}

export interface TokenLogprob extends TopLogprob {
  top_logprobs: TopLogprob[];
}

export interface ChatLogprobs {
  content: TokenLogprob[];
  refusal: null;
}

const MAX_TOP_LOGPROBS = 20;
/** An ordinary token's probability stays above e^-0.6 (about 0.55), most of them very close to 1. */
const MAX_ORDINARY_SURPRISE = 0.6;
const MIN_ORDINARY_SURPRISE = 1e-7;

/** The answer's logprobs, or null: not asked for, an upstream that gives none (`no_logprobs`), or tool calls rather than text. */
export function answerLogprobs(request: ChatRequest, answer: ChatAnswer, directives: Directives): ChatLogprobs | null {
  if (request.logprobs !== true || directives.noLogprobs || answer.kind !== 'text') return null;
  return textLogprobs(answer.content, answer.enumChoices, request.top_logprobs ?? 0);
}

export function textLogprobs(content: string, choices: readonly EnumChoice[], topCount: number): ChatLogprobs {
  const random = seededRandom(hashString(content));
  const tokens: TokenLogprob[] = [];
  let at = 0;
  for (const choice of [...choices].sort((a, b) => a.offset - b.offset)) {
    const token = enumToken(choice.odds[0]?.value ?? '');
    if (choice.offset < at || !content.startsWith(token, choice.offset)) continue;
    tokens.push(...ordinaryTokens(content.slice(at, choice.offset), topCount, random), enumChoiceToken(choice, topCount));
    at = choice.offset + token.length;
  }
  tokens.push(...ordinaryTokens(content.slice(at), topCount, random));
  return { content: tokens, refusal: null };
}

/** `top_logprobs` needs `logprobs: true` and an integer from 0 to 20, with the real API's errors. */
export function logprobsParameterError(request: ChatRequest): OpenAIError | undefined {
  const top: unknown = request.top_logprobs;
  if (top === undefined || top === null) return undefined;
  if (request.logprobs !== true) return invalidRequest(400, "The 'top_logprobs' parameter is only allowed when 'logprobs' is enabled.", 'top_logprobs');
  if (typeof top !== 'number' || !Number.isInteger(top)) {
    return invalidRequest(400, `Invalid type for 'top_logprobs': expected an integer, but got ${JSON.stringify(top)} instead.`, 'top_logprobs', 'invalid_type');
  }
  if (top > MAX_TOP_LOGPROBS) {
    const message = `Invalid 'top_logprobs': integer above maximum value. Expected a value <= ${MAX_TOP_LOGPROBS}, but got ${top} instead.`;
    return invalidRequest(400, message, 'top_logprobs', 'integer_above_max_value');
  }
  if (top < 0) {
    return invalidRequest(400, `Invalid 'top_logprobs': integer below minimum value. Expected a value >= 0, but got ${top} instead.`, 'top_logprobs', 'integer_below_min_value');
  }
  return undefined;
}

function enumChoiceToken(choice: EnumChoice, topCount: number): TokenLogprob {
  const [chosen, ...others] = choice.odds.map(({ value, probability }) => tokenLogprob(enumToken(value), Math.log(probability)));
  if (!chosen) throw new Error('an enum choice has odds for its value');
  return { ...chosen, top_logprobs: [chosen, ...others].slice(0, topCount) };
}

function ordinaryTokens(text: string, topCount: number, random: Random): TokenLogprob[] {
  return splitIntoTokens(text).map((token) => {
    const surprise = MIN_ORDINARY_SURPRISE + random() ** 4 * MAX_ORDINARY_SURPRISE;
    const chosen = tokenLogprob(token, -surprise);
    return { ...chosen, top_logprobs: [chosen, ...madeUpAlternatives(token, -Math.expm1(-surprise), topCount - 1, random)].slice(0, topCount) };
  });
}

/** Words a model might have written instead; more than the 20 alternatives `top_logprobs` can ask for. */
const ALTERNATIVE_WORDS = [
  'the', 'a', 'this', 'that', 'it', 'and', 'with', 'for', 'from', 'about', 'answer', 'model', 'request', 'result', 'value',
  'simple', 'short', 'clear', 'useful', 'is', 'was', 'can', 'will', 'gives', 'keeps', 'here', 'there', 'each', 'some', 'one',
];

/**
 * `count` other tokens sharing part of what the chosen one leaves (`rest`,
 * the chance it was not chosen), each less likely than the one before:
 * distinct words, with a leading space when the chosen token has one.
 */
function madeUpAlternatives(token: string, rest: number, count: number, random: Random): TopLogprob[] {
  if (count <= 0) return [];
  const space = /^\s/.test(token) ? ' ' : '';
  const start = Math.floor(random() * ALTERNATIVE_WORDS.length);
  const candidates = [...ALTERNATIVE_WORDS.slice(start), ...ALTERNATIVE_WORDS.slice(0, start)].map((word) => space + word);
  const words = [...new Set(candidates)].filter((word) => word !== token).slice(0, count);
  const probabilities = words.map((_, index) => rest * (0.05 + random() * 0.45) * 0.5 ** index).sort((a, b) => b - a);
  return words.map((word, index) => tokenLogprob(word, Math.log(probabilities[index] as number)));
}

function tokenLogprob(token: string, logprob: number): TopLogprob {
  return { token, logprob, bytes: [...Buffer.from(token, 'utf8')] };
}
