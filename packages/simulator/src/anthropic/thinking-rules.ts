import { type AnthropicError, budgetBelowMinimum, budgetNotBelowMaxTokens, fieldRequired, forcedToolWithThinking, invalidRequest, temperatureWithThinking, topKWithThinking, topPWithThinking } from './errors';
import type { MessagesRequest } from './messages-request';

/**
 * Extended thinking's rules, checked as the real API checks them: a budget
 * of at least 1024 tokens and below `max_tokens`, and, while thinking is on,
 * no changed sampling (temperature 1 only, no `top_k`, `top_p` from 0.95 to
 * 1) and no forced tool use.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#feature-compatibility
 */
const MIN_BUDGET_TOKENS = 1024;
const MIN_TOP_P_WITH_THINKING = 0.95;
const THINKING_TYPES = ['enabled', 'disabled', 'adaptive'];

/** `adaptive` (newer models) thinks too, with a budget the model picks. */
export function isThinkingOn(request: MessagesRequest): boolean {
  const type = request.thinking?.type;
  return type === 'enabled' || type === 'adaptive';
}

/**
 * Claude 4.7 and later refuse extended thinking with a fixed budget; 4.6
 * still takes it (deprecated), older models take nothing else.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/adaptive-thinking
 */
function takesAdaptiveThinkingOnly(model: string): boolean {
  const version = /^claude-(?:opus|sonnet|haiku)-(\d+)-(\d+)(?:$|-)/.exec(model);
  if (!version) return false;
  const [major, minor] = [Number(version[1]), Number(version[2])];
  return major > 4 || (major === 4 && minor >= 7);
}

const EFFORT_LEVELS = ['low', 'medium', 'high', 'max'];

export function thinkingParameterError(request: MessagesRequest): AnthropicError | undefined {
  const effort = request.output_config?.effort;
  if (effort !== undefined && !EFFORT_LEVELS.includes(effort)) {
    return invalidRequest(`output_config.effort: Input should be ${EFFORT_LEVELS.map((level) => `'${level}'`).join(', ')}`);
  }
  const { thinking } = request;
  if (!thinking) return undefined;
  if (!THINKING_TYPES.includes(thinking.type)) {
    return invalidRequest(`thinking: Input tag '${String(thinking.type)}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'`);
  }
  if (thinking.type === 'enabled') {
    if (takesAdaptiveThinkingOnly(request.model)) {
      return invalidRequest(`"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`);
    }
    if (thinking.budget_tokens === undefined || thinking.budget_tokens === null) return fieldRequired('thinking.enabled.budget_tokens');
    if (thinking.budget_tokens < MIN_BUDGET_TOKENS) return budgetBelowMinimum();
    if (thinking.budget_tokens >= request.max_tokens) return budgetNotBelowMaxTokens();
  }
  return isThinkingOn(request) ? samplingError(request) : undefined;
}

function samplingError(request: MessagesRequest): AnthropicError | undefined {
  const { temperature, top_k: topK, top_p: topP, tool_choice: toolChoice } = request;
  if (temperature !== undefined && temperature !== null && temperature !== 1) return temperatureWithThinking();
  if (topK !== undefined && topK !== null) return topKWithThinking();
  if (topP !== undefined && topP !== null && (topP < MIN_TOP_P_WITH_THINKING || topP > 1)) return topPWithThinking();
  if (toolChoice?.type === 'any' || toolChoice?.type === 'tool') return forcedToolWithThinking();
  return undefined;
}
