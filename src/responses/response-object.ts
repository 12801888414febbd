import type { ChatUsage } from '../providers/chat-types';
import type { ResponsesRequest } from './responses-request-schema';

/** An output item of a response, in the Responses wire shape. */
export type OutputItem = Record<string, unknown> & { type: string; id: string };

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number | null };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number | null };
  total_tokens: number;
}

/** The gateway's id for a response: the request id, so a response and its usage record name each other. */
export function responseId(requestId: string): string {
  return `resp_${requestId.replace(/^req_/, '')}`;
}

/**
 * A response object as the official SDK reads it, from what the client
 * asked (echoed, as OpenAI does) and what was produced.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export function responseObject(
  req: ResponsesRequest,
  fields: { id: string; createdAt: number; status: 'in_progress' | 'completed' | 'incomplete' | 'failed'; output: OutputItem[]; usage: ResponseUsage | null; incompleteReason?: string },
): Record<string, unknown> {
  return {
    id: fields.id,
    object: 'response',
    created_at: fields.createdAt,
    status: fields.status,
    error: null,
    incomplete_details: fields.incompleteReason ? { reason: fields.incompleteReason } : null,
    instructions: req.instructions ?? null,
    max_output_tokens: req.max_output_tokens ?? null,
    model: req.model,
    output: fields.output,
    parallel_tool_calls: req.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: req.reasoning?.effort ?? null, summary: req.reasoning?.summary ?? null },
    store: false,
    temperature: req.temperature ?? null,
    text: { format: req.text?.format ?? { type: 'text' } },
    tool_choice: req.tool_choice ?? 'auto',
    tools: req.tools ?? [],
    top_p: req.top_p ?? null,
    truncation: 'disabled',
    usage: fields.usage,
    user: req.user ?? null,
    metadata: req.metadata ?? {},
  };
}

/** Chat usage in the Responses shape: cached tokens are part of the input, reasoning part of the output. */
export function responseUsage(usage: ChatUsage): ResponseUsage {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage.total_tokens,
  };
}
