import { GatewayError } from '../errors/gateway-error';

/** Where each chat request field a translated request sets came from in Gemini's request. */
const GEMINI_NAMES: Record<string, string> = {
  messages: 'contents',
  n: 'generationConfig.candidateCount',
  'reasoning.max_tokens': 'generationConfig.thinkingConfig.thinkingBudget',
  'reasoning.effort': 'generationConfig.thinkingConfig.thinkingLevel',
  reasoning_effort: 'generationConfig.thinkingConfig.thinkingLevel',
  max_tokens: 'generationConfig.maxOutputTokens',
  max_completion_tokens: 'generationConfig.maxOutputTokens',
  temperature: 'generationConfig.temperature',
  top_p: 'generationConfig.topP',
  top_k: 'generationConfig.topK',
  stop: 'generationConfig.stopSequences',
  seed: 'generationConfig.seed',
  presence_penalty: 'generationConfig.presencePenalty',
  frequency_penalty: 'generationConfig.frequencyPenalty',
  response_format: 'generationConfig.responseMimeType',
  tools: 'tools',
  tool_choice: 'toolConfig.functionCallingConfig',
};

/**
 * A refusal of the chat core (its validation, a family's reasoning rules,
 * an adapter that cannot carry a field) in the terms of the request the
 * client sent: `param` names the Gemini field, and the message, which names
 * the chat field, says which Gemini field that is.
 */
export function inGeminiTerms(err: unknown): unknown {
  if (!(err instanceof GatewayError) || !err.options.param) return err;
  const chatParam = err.options.param;
  const key = Object.keys(GEMINI_NAMES).find((name) => chatParam === name || chatParam.startsWith(`${name}[`) || chatParam.startsWith(`${name}.`));
  if (!key) return err;
  const geminiParam = GEMINI_NAMES[key]! + (key === 'messages' || key === 'tools' ? chatParam.slice(key.length) : '');
  const message = `${err.message} (the chat core's "${chatParam}" is "${geminiParam}" in this request.)`;
  return new GatewayError(err.registryCode, message, { ...err.options, param: geminiParam });
}
