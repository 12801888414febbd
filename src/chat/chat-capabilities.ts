import type { Candidate } from '../catalog/catalog';
import { GatewayError } from '../errors/gateway-error';
import type { ChatRequest } from '../providers/chat-request';

/**
 * Keeps the candidates whose catalog entry supports what the request uses
 * (tools, tool_choice, response_format, images, streaming, max_tokens), so
 * that nothing unsupported is ever sent upstream. When none is left, the
 * first candidate's reason is the error.
 */
export function filterCapableCandidates(candidates: Candidate[], req: ChatRequest): Candidate[] {
  let firstError: GatewayError | undefined;
  const capable = candidates.filter((c) => {
    const problem = unsupportedFeature(c, req);
    if (problem && !firstError) firstError = problem;
    return !problem;
  });
  if (!capable.length) throw firstError!;
  return capable;
}

function unsupportedFeature(candidate: Candidate, req: ChatRequest): GatewayError | undefined {
  const model = candidate.model.config;
  const caps = model.capabilities;
  const refuse = (param: string, capability: string) =>
    new GatewayError('unsupported_parameter', `The model "${model.id}" does not support ${capability}; remove "${param}" or pick a model whose catalog entry supports it.`, { param });
  if (req.tools?.length && !caps.tools) return refuse('tools', 'tools (catalog parameters.tools is false)');
  if (forcesToolUse(req.tool_choice) && !caps.tool_choice) return refuse('tool_choice', 'tool_choice');
  if (req.response_format && req.response_format.type !== 'text' && !caps.json_output) return refuse('response_format', 'JSON output');
  if (req.stream && !caps.streaming) return refuse('stream', 'streaming');
  if (!model.modalities.input.includes('image') && hasParts(req, 'image_url')) return refuse('messages', 'image input');
  if (!model.modalities.input.includes('file') && hasParts(req, 'file')) return refuse('messages', 'file (document) input');
  const maxTokens = req.max_completion_tokens ?? req.max_tokens;
  const limit = model.max_output_tokens;
  if (maxTokens && limit && maxTokens > limit) {
    const param = req.max_completion_tokens ? 'max_completion_tokens' : 'max_tokens';
    return new GatewayError('max_tokens_out_of_range', `"${param}" is ${maxTokens}, above the ${limit} output tokens the model "${model.id}" allows.`, { param });
  }
  return undefined;
}

/**
 * Only a choice that forces a call (`required`, or a named function) needs
 * the catalog's `tool_choice`: `auto` is the default, and `none` asks for
 * no call at all, nothing a model needs a capability for.
 */
function forcesToolUse(choice: ChatRequest['tool_choice']): boolean {
  return Boolean(choice) && choice !== 'auto' && choice !== 'none';
}

function hasParts(req: ChatRequest, type: 'image_url' | 'file'): boolean {
  return req.messages.some((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((p) => p.type === type));
}
