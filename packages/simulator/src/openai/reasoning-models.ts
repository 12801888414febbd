import type { ChatRequest } from './chat-request';
import { type OpenAIError, unsupportedParameter, unsupportedValue } from './errors';

/**
 * The o-series rules: the parameters they refuse, with the real API's
 * errors, and the hidden reasoning they bill inside `completion_tokens`.
 * @see https://platform.openai.com/docs/api-reference/chat
 */

export function isReasoningModel(model: string): boolean {
  return /^(?:o[134]|gpt-5)(?:-|$)/.test(model);
}

const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** The efforts a model takes: GPT-5 adds `minimal` to the o-series' three. */
function effortsOf(model: string): readonly ReasoningEffort[] {
  return model.startsWith('gpt-5') ? REASONING_EFFORTS : ['low', 'medium', 'high'];
}

/** Fixed per effort so that tests can tell the efforts apart; each step roughly triples the thinking. */
const REASONING_TOKENS: { [effort in ReasoningEffort]: number } = { minimal: 16, low: 128, medium: 384, high: 1152 };

/** The parameters an o-series model refuses; other models take them all. */
export function reasoningParameterError(request: ChatRequest): OpenAIError | undefined {
  if (!isReasoningModel(request.model)) return undefined;
  if (request.max_tokens !== undefined && request.max_tokens !== null) return unsupportedParameter('max_tokens', 'max_completion_tokens');
  if (request.temperature !== undefined && request.temperature !== null && request.temperature !== 1) {
    return unsupportedValue('temperature', `does not support ${request.temperature} with this model. Only the default (1) value is supported.`);
  }
  return unsupportedEffortError('reasoning_effort', request.model, request.reasoning_effort);
}

/** An effort the model does not take, under the parameter that carries it (`reasoning_effort` in Chat, `reasoning.effort` in Responses). */
export function unsupportedEffortError(param: string, model: string, effort: string | null | undefined): OpenAIError | undefined {
  const efforts = effortsOf(model);
  if (effort === undefined || effort === null || (efforts as readonly string[]).includes(effort)) return undefined;
  const listed = efforts.map((e) => `'${e}'`);
  return unsupportedValue(param, `does not support '${effort}' with this model. Supported values are: ${listed.slice(0, -1).join(', ')}, and ${listed.at(-1)}.`);
}

/** The reasoning tokens an answer spends before its visible text; 0 for models that do not reason. */
export function reasoningTokensFor(request: ChatRequest): number {
  if (!isReasoningModel(request.model)) return 0;
  const effort = request.reasoning_effort;
  return REASONING_TOKENS[effort && isReasoningEffort(effort) ? effort : 'medium'];
}

function isReasoningEffort(value: string): value is ReasoningEffort {
  return (REASONING_EFFORTS as readonly string[]).includes(value);
}
