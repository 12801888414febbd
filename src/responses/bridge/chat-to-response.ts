import type { McpCallMade } from '../../mcp/mcp-tools-for-models';
import type { ReasoningDetail } from '../../providers/chat-request';
import type { ChatCompletion, ChatToolCall } from '../../providers/chat-types';
import { type OutputItem, responseObject, responseUsage } from '../response-object';
import type { ResponsesRequest } from '../responses-request-schema';
import { encodeReasoningState } from '../../chat/carried-reasoning-state';

/** Ids of the output items of one response, numbered in order: stable, so a test (or a log) can follow them. */
export class OutputItemIds {
  private next = 0;
  constructor(private readonly base: string) {}
  take(prefix: 'rs' | 'msg' | 'fc'): string {
    return `${prefix}_${this.base}_${this.next++}`;
  }
}

/** A reasoning item: the reasoning text as its summary, the provider's signed state (if any) as its encrypted content. */
export function reasoningItem(id: string, text: string, details: readonly ReasoningDetail[]): OutputItem {
  return {
    type: 'reasoning',
    id,
    summary: text ? [{ type: 'summary_text', text }] : [],
    ...(details.length ? { encrypted_content: encodeReasoningState(details) } : {}),
  };
}

export function messageItem(id: string, text: string, status: 'in_progress' | 'completed' = 'completed'): OutputItem {
  return { type: 'message', id, status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

export function functionCallItem(id: string, call: ChatToolCall, status: 'in_progress' | 'completed' = 'completed'): OutputItem {
  return { type: 'function_call', id, call_id: call.id, name: call.function.name, arguments: call.function.arguments, status };
}

/** An MCP tool call the gateway ran for the model, in OpenAI's `mcp_call` item shape. */
export function mcpCallItem(call: McpCallMade): OutputItem {
  return { type: 'mcp_call', id: call.id, server_label: call.server_label, name: call.name, arguments: call.arguments, output: call.output, error: call.error, status: call.error === null ? 'completed' : 'failed' };
}

/**
 * A chat completion as a Responses response: reasoning first, then the
 * MCP calls the gateway ran (`mcp_call`), then the text, then one `function_call` item per tool call (its `call_id` is the
 * chat tool call id, so the client's `function_call_output` finds it).
 * A completion cut by its token limit is `incomplete`.
 */
export function toResponse(req: ResponsesRequest, completion: ChatCompletion, id: string, createdAt: number): Record<string, unknown> {
  const ids = new OutputItemIds(id.replace(/^resp_/, ''));
  const choice = completion.choices[0];
  const message = choice?.message;
  const output: OutputItem[] = [];
  if (message?.reasoning_content || message?.reasoning_details?.length) {
    output.push(reasoningItem(ids.take('rs'), message.reasoning_content ?? '', message.reasoning_details ?? []));
  }
  for (const call of (message?.mcp_calls as McpCallMade[] | undefined) ?? []) output.push(mcpCallItem(call));
  if (message?.content) output.push(messageItem(ids.take('msg'), message.content));
  for (const call of message?.tool_calls ?? []) output.push(functionCallItem(ids.take('fc'), call));
  const incomplete = choice?.finish_reason === 'length';
  return responseObject(req, {
    id,
    createdAt,
    status: incomplete ? 'incomplete' : 'completed',
    output,
    usage: completion.usage ? responseUsage(completion.usage) : null,
    ...(incomplete ? { incompleteReason: 'max_output_tokens' } : {}),
  });
}
