import { countTextTokens } from '../token-count';
import type { GeminiAnswer } from './answer';
import type { GeneratedFunctionCall } from './function-calls';
import type { GeminiPart, GenerateContentRequest } from './generate-request';
import { minCachedPromptTokens } from './thinking-models';

/**
 * Gemini's `usageMetadata`, on top of the simulator's
 * four-characters-per-token rule (see token-count.ts):
 * - `promptTokenCount`: the system instruction, every part of every content
 *   (a function call or result by its name and JSON), the tool declarations,
 *   and 258 tokens per image, Gemini's price of a small image; it includes
 *   `cachedContentTokenCount`;
 * - `cachedContentTokenCount`: prompts from the model's implicit-caching
 *   minimum on report half of themselves, in blocks of 256, as read from
 *   cache, as if their first half repeated an earlier request;
 * - `candidatesTokenCount`: the visible answer only; `thoughtsTokenCount`
 *   the thinking, apart from it; `totalTokenCount` the sum of the three.
 * Zero counts are left out, as proto3 JSON does.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 * @see https://ai.google.dev/gemini-api/docs/tokens#multimodal-tokens
 */
export interface PromptTokens {
  text: number;
  image: number;
  cached: number;
}

const TOKENS_PER_IMAGE = 258;
const CACHE_BLOCK_TOKENS = 256;

export function countPromptTokens(model: string, request: GenerateContentRequest): PromptTokens {
  const parts = [...(request.systemInstruction?.parts ?? []), ...request.contents.flatMap((content) => content.parts)];
  const image = parts.filter((part) => part.inlineData || part.fileData).length * TOKENS_PER_IMAGE;
  const tools = request.tools?.length ? countTextTokens(JSON.stringify(request.tools)) : 0;
  const text = parts.reduce((sum, part) => sum + partTextTokens(part), tools);
  return { text, image, cached: cachedTokens(text + image, minCachedPromptTokens(model)) };
}

function partTextTokens(part: GeminiPart): number {
  if (typeof part.text === 'string') return countTextTokens(part.text);
  if (part.functionCall) return countTextTokens(part.functionCall.name ?? '') + countTextTokens(JSON.stringify(part.functionCall.args ?? {}));
  if (part.functionResponse) return countTextTokens(part.functionResponse.name ?? '') + countTextTokens(JSON.stringify(part.functionResponse.response ?? {}));
  return 0;
}

function cachedTokens(promptTokens: number, minimum: number): number {
  if (promptTokens < minimum) return 0;
  return Math.floor(promptTokens / 2 / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
}

/** What the answer shows, thinking apart: its text, or each call's name and arguments. */
export function visibleAnswerTokens(answer: GeminiAnswer): number {
  return countTextTokens(answer.text) + answer.functionCalls.reduce((sum, call) => sum + functionCallTokens(call), 0);
}

export function functionCallTokens(call: GeneratedFunctionCall): number {
  return countTextTokens(call.name) + countTextTokens(JSON.stringify(call.args));
}

export function usageMetadata(prompt: PromptTokens, candidatesTokens: number, thoughtsTokens: number): object {
  const promptTokenCount = prompt.text + prompt.image;
  return {
    promptTokenCount,
    ...(candidatesTokens > 0 ? { candidatesTokenCount: candidatesTokens } : {}),
    totalTokenCount: promptTokenCount + candidatesTokens + thoughtsTokens,
    ...(prompt.cached > 0 ? { cachedContentTokenCount: prompt.cached } : {}),
    promptTokensDetails: modalityCounts(prompt),
    ...(prompt.cached > 0 ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: prompt.cached }] } : {}),
    ...(thoughtsTokens > 0 ? { thoughtsTokenCount: thoughtsTokens } : {}),
  };
}

function modalityCounts(prompt: PromptTokens): object[] {
  const counts = [];
  if (prompt.text > 0) counts.push({ modality: 'TEXT', tokenCount: prompt.text });
  if (prompt.image > 0) counts.push({ modality: 'IMAGE', tokenCount: prompt.image });
  return counts;
}
