/**
 * What each upstream protocol documents as its request's top-level fields,
 * and how to tell which protocol a request the simulator received spoke.
 * A format-matrix test checks that every field the gateway sent upstream
 * is one of its protocol's own: nothing of another dialect leaks across.
 */
export type UpstreamProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini-generate';

export const PROTOCOL_FIELDS: Record<UpstreamProtocol, ReadonlySet<string>> = {
  'openai-chat': new Set([
    'model', 'messages', 'stream', 'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'temperature', 'top_p',
    'max_tokens', 'max_completion_tokens', 'stop', 'n', 'seed', 'presence_penalty', 'frequency_penalty', 'logit_bias', 'logprobs', 'top_logprobs',
    'user', 'reasoning_effort', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier', 'service_tier', 'metadata', 'store',
    'modalities', 'audio', 'prediction', 'verbosity', 'web_search_options',
  ]),
  'openai-responses': new Set([
    'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens', 'max_tool_calls', 'temperature', 'top_p',
    'top_logprobs', 'truncation', 'stream', 'stream_options', 'reasoning', 'text', 'metadata', 'service_tier', 'include', 'store', 'user',
    'safety_identifier', 'prompt_cache_key', 'prompt_cache_retention', 'previous_response_id', 'background', 'conversation', 'prompt',
  ]),
  'anthropic-messages': new Set([
    'model', 'messages', 'system', 'max_tokens', 'metadata', 'stop_sequences', 'stream', 'temperature', 'top_k', 'top_p', 'tools', 'tool_choice',
    'thinking', 'output_config', 'output_format', 'service_tier', 'container', 'mcp_servers', 'context_management',
  ]),
  'gemini-generate': new Set(['contents', 'systemInstruction', 'generationConfig', 'tools', 'toolConfig', 'safetySettings', 'cachedContent', 'labels']),
};

/** The protocol of a request by its upstream path (the simulator serves every provider under its own paths). */
export function protocolOfPath(path: string): UpstreamProtocol | undefined {
  if (path.endsWith('/chat/completions')) return 'openai-chat';
  if (path.endsWith('/responses')) return 'openai-responses';
  if (path.endsWith('/messages')) return 'anthropic-messages';
  if (/:(stream)?generateContent$/i.test(path)) return 'gemini-generate';
  return undefined;
}

/** The fields of `body` its protocol does not define (empty when it spoke its protocol only). */
export function foreignFields(protocol: UpstreamProtocol, body: Record<string, unknown>): string[] {
  return Object.keys(body).filter((field) => !PROTOCOL_FIELDS[protocol].has(field));
}

/** Field names that belong to some protocols only, wherever they sit in a body; the gateway's own names belong to none. */
const NESTED_MARKERS: Record<string, UpstreamProtocol[]> = {
  cache_control: ['anthropic-messages'],
  thoughtSignature: ['gemini-generate'],
  functionCall: ['gemini-generate'],
  reasoning_details: [],
  reasoning_content: [],
};

/** Field names anywhere in `body` that belong to another protocol, or to the gateway's canonical shape only. */
export function leakedFields(protocol: UpstreamProtocol, body: unknown): string[] {
  const json = JSON.stringify(body);
  return Object.entries(NESTED_MARKERS)
    .filter(([name, owners]) => !owners.includes(protocol) && json.includes(`"${name}":`))
    .map(([name]) => name);
}
