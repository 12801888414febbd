import type { UpstreamChatRequest } from '../chat-adapter';
import type { GeminiGenerationConfig, GeminiThinkingConfig } from './gemini-api';

/**
 * The sampling, length, format and thinking fields of a chat request as
 * Gemini's `generationConfig`. Unset fields stay unset, so Gemini's own
 * defaults apply; no field at all leaves `generationConfig` out.
 * @see https://ai.google.dev/api/generate-content#generationconfig
 */
export function toGeminiGenerationConfig(request: UpstreamChatRequest): GeminiGenerationConfig | undefined {
  const config: GeminiGenerationConfig = {};
  if (request.temperature != null) config.temperature = request.temperature;
  if (request.top_p != null) config.topP = request.top_p;
  if (request.top_k != null) config.topK = request.top_k;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens != null) config.maxOutputTokens = maxTokens;
  if (request.stop != null) config.stopSequences = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (request.n != null) config.candidateCount = request.n;
  if (request.seed != null) config.seed = request.seed;
  if (request.presence_penalty != null) config.presencePenalty = request.presence_penalty;
  if (request.frequency_penalty != null) config.frequencyPenalty = request.frequency_penalty;
  Object.assign(config, responseFormatConfig(request.response_format));
  const thinkingConfig = toGeminiThinkingConfig(request.thinking);
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;
  return Object.keys(config).length ? config : undefined;
}

/**
 * JSON mode and structured output. `responseJsonSchema` takes the client's
 * JSON Schema as it is (unlike `responseSchema`, an OpenAPI subset).
 * @see https://ai.google.dev/gemini-api/docs/structured-output
 */
function responseFormatConfig(format: UpstreamChatRequest['response_format']): Pick<GeminiGenerationConfig, 'responseMimeType' | 'responseJsonSchema'> {
  if (format?.type === 'json_object') return { responseMimeType: 'application/json' };
  if (format?.type !== 'json_schema') return {};
  const schema = format.json_schema.schema;
  return schema ? { responseMimeType: 'application/json', responseJsonSchema: schema } : { responseMimeType: 'application/json' };
}

/**
 * The gateway's reasoning decision as a thinking budget (Gemini 2.5) or a
 * thinking level (Gemini 3, which refuses both at once): off is budget 0,
 * on with a budget is that budget, on with an effort is that level, and no
 * decision leaves the model's default. The gateway's rules already checked
 * the values.
 * @see https://ai.google.dev/gemini-api/docs/thinking#set-budget
 * @see https://ai.google.dev/gemini-api/docs/thinking#thinking-levels
 */
export function toGeminiThinkingConfig(thinking: UpstreamChatRequest['thinking']): GeminiThinkingConfig | undefined {
  if (!thinking) return undefined;
  const config: GeminiThinkingConfig = {};
  if (!thinking.enabled) config.thinkingBudget = 0;
  else if (thinking.budgetTokens !== undefined) config.thinkingBudget = thinking.budgetTokens;
  else if (thinking.effort !== undefined) config.thinkingLevel = thinking.effort;
  if (thinking.includeThoughts) config.includeThoughts = true;
  return Object.keys(config).length ? config : undefined;
}
