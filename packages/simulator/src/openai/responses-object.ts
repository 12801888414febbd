import { servedServiceTier } from './chat-response';
import { isReasoningModel } from './reasoning-models';
import { type OutputItem, itemId } from './responses-answer';
import type { ResponsesRequest } from './responses-request';
import type { ResponsesUsage } from './responses-usage';

/**
 * The `response` object, field for field and in the order of the recorded
 * api.openai.com answers (test/fixtures/recorded/openai-responses/): what was
 * produced, and the request's settings echoed back with the API's defaults
 * filled in. The same object, still empty and in progress, opens a stream.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete';

/** What every event of one answer shares. */
export interface ResponseIdentity {
  id: string;
  created_at: number;
}

export function responseIdentity(): ResponseIdentity {
  return { id: itemId('resp_'), created_at: Math.floor(Date.now() / 1000) };
}

export interface ResponseProgress {
  status: ResponseStatus;
  output: OutputItem[];
  usage: ResponsesUsage | null;
}

export function responseObject(identity: ResponseIdentity, request: ResponsesRequest, progress: ResponseProgress): { [field: string]: unknown } {
  const { status, output, usage } = progress;
  const reasons = isReasoningModel(request.model);
  return {
    id: identity.id,
    object: 'response',
    created_at: identity.created_at,
    status,
    background: false,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: request.max_tool_calls ?? null,
    model: request.model,
    output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    prompt_cache_retention: null,
    reasoning: reasons ? { effort: request.reasoning?.effort ?? 'medium', summary: request.reasoning?.summary ?? null } : { effort: null, summary: null },
    safety_identifier: request.safety_identifier ?? null,
    service_tier: servedServiceTier(request.service_tier),
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map(({ type, description, name, parameters, strict }) => ({
      type,
      description: description ?? null,
      name,
      parameters: parameters ?? null,
      strict: strict ?? true,
    })),
    top_logprobs: request.top_logprobs ?? 0,
    top_p: request.top_p ?? 1,
    truncation: request.truncation ?? 'disabled',
    usage,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}
