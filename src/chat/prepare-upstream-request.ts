import type { Candidate } from '../catalog/catalog';
import type { UpstreamChatRequest } from '../providers/chat-adapter';
import type { ChatRequest } from './chat-request-schema';

/**
 * Applies the model family's parameter rules to the client's request. The
 * OpenAI o-series take `max_completion_tokens` (they reject `max_tokens`)
 * and express reasoning as `reasoning_effort`.
 */
export function prepareUpstreamRequest(candidate: Candidate, req: ChatRequest): UpstreamChatRequest {
  const family = candidate.model.config.family;
  if (family !== 'openai-reasoning') return req;
  const { max_tokens, reasoning, ...rest } = req;
  const effort = reasoning?.effort ?? rest.reasoning_effort ?? undefined;
  return {
    ...rest,
    max_completion_tokens: rest.max_completion_tokens ?? max_tokens,
    reasoning_effort: undefined,
    ...(effort ? { thinking: { enabled: true, effort } } : {}),
  };
}
