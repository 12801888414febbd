import type { UpstreamChatRequest } from '../chat-adapter';
import { UnsupportedParameterError } from '../unsupported-parameter';
import { prepareAnthropicTools } from './anthropic-prepare-tools';
import { anthropicResponseFormat } from './anthropic-response-format';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';

/**
 * The Messages request body for a call. `max_tokens` is required by
 * Anthropic (the gateway's reasoning rules always set it for Claude); the
 * thinking budget or effort level comes from those rules too, already
 * checked, so nothing about reasoning is decided here. `output_config`
 * carries both the effort level and a structured output's schema;
 * `response_format` is anthropic-response-format.ts's.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
export function toAnthropicMessagesBody(request: UpstreamChatRequest, upstreamModel: string, stream: boolean): Record<string, unknown> {
  refuseInexpressibleFields(request);
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (!maxTokens) throw new UnsupportedParameterError('max_tokens', 'Anthropic requires "max_tokens"; set "max_tokens" or "max_completion_tokens".');
  const thinkingEnabled = request.thinking?.enabled === true;
  const { system, messages } = convertToAnthropicMessages(request.messages, { thinkingEnabled });
  const body: Record<string, unknown> = { model: upstreamModel, max_tokens: maxTokens, messages };
  if (system.length) body.system = system;
  const outputConfig: Record<string, unknown> = {};
  if (thinkingEnabled) {
    const { thinking, effort } = anthropicThinking(request.thinking!);
    body.thinking = thinking;
    if (effort) outputConfig.effort = effort;
  }
  assignIfSet(body, 'temperature', request.temperature);
  assignIfSet(body, 'top_p', request.top_p);
  assignIfSet(body, 'top_k', request.top_k);
  const stopSequences = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stopSequences?.length) body.stop_sequences = stopSequences;
  if (request.user) body.metadata = { user_id: request.user };
  const format = anthropicResponseFormat(request);
  if (format?.kind === 'output_format') outputConfig.format = { type: 'json_schema', schema: format.schema };
  if (Object.keys(outputConfig).length) body.output_config = outputConfig;
  Object.assign(body, format?.kind === 'answer_tool' ? { tools: [format.tool], tool_choice: { type: 'tool', name: format.tool.name } } : prepareAnthropicTools(request));
  if (stream) body.stream = true;
  return body;
}

/**
 * OpenAI fields with no Messages equivalent, refused by name rather than
 * dropped, so a client never gets an answer that silently ignored what it
 * asked for. Values that ask for nothing (`n: 1`, zero penalties) pass.
 */
function refuseInexpressibleFields(request: UpstreamChatRequest): void {
  const refuse = (param: string, what: string) => {
    throw new UnsupportedParameterError(param, `Anthropic models do not support ${what}; remove "${param}".`);
  };
  if ((request.n ?? 1) > 1) refuse('n', 'more than one choice per request');
  if (request.logprobs) refuse('logprobs', 'log probabilities');
  if (request.top_logprobs) refuse('top_logprobs', 'log probabilities');
  if (request.logit_bias && Object.keys(request.logit_bias).length) refuse('logit_bias', 'logit bias');
  if (request.presence_penalty) refuse('presence_penalty', 'a presence penalty');
  if (request.frequency_penalty) refuse('frequency_penalty', 'a frequency penalty');
  if (request.seed !== undefined && request.seed !== null) refuse('seed', 'seeded sampling');
}

/**
 * Thinking with a budget is extended thinking (`enabled`, up to Claude 4.5;
 * deprecated on 4.6); without one it is adaptive thinking, where the model
 * picks the depth, steered by `output_config.effort` (Claude 4.6 and later,
 * which answer 400 to `enabled` from 4.7 on).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/adaptive-thinking
 */
function anthropicThinking(thinking: NonNullable<UpstreamChatRequest['thinking']>): { thinking: Record<string, unknown>; effort?: string } {
  if (thinking.budgetTokens !== undefined) return { thinking: { type: 'enabled', budget_tokens: thinking.budgetTokens } };
  return { thinking: { type: 'adaptive' }, ...(thinking.effort ? { effort: thinking.effort } : {}) };
}

function assignIfSet(body: Record<string, unknown>, field: string, value: number | null | undefined): void {
  if (value !== undefined && value !== null) body[field] = value;
}
