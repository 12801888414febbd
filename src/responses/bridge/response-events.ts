import type { ReasoningDetail } from '../../providers/chat-request';
import type { ChatCompletionChunk, ChatUsage } from '../../providers/chat-types';
import { type OutputItem, responseObject, responseUsage } from '../response-object';
import type { ResponsesRequest } from '../responses-request-schema';
import type { McpCallMade } from '../../mcp/mcp-tools-for-models';
import { functionCallItem, mcpCallItem, messageItem, OutputItemIds, reasoningItem } from './chat-to-response';

/** One Responses stream event: its `type` is also the SSE event name. */
export type ResponseEvent = { type: string; sequence_number: number; [field: string]: unknown };

type OpenText = { kind: 'reasoning' | 'message'; index: number; id: string; text: string; details: ReasoningDetail[] };
type OpenCall = { index: number; id: string; callId: string; name: string; args: string };

/**
 * A streamed chat completion as the Responses stream events the official
 * SDK expects, in its order: `response.created`, `response.in_progress`,
 * then per output item `response.output_item.added`, its content events
 * (reasoning summary text, output text, function call arguments) and
 * `response.output_item.done`, and last `response.completed` (or
 * `response.incomplete` when the token limit cut the answer) with the whole
 * response and its usage; an MCP call the gateway ran between the model's
 * turns (a chunk's `mcp_calls`) is an `mcp_call` item with its own events.
 * Items are closed in the order they were opened;
 * signed reasoning state that arrives after its reasoning item closed (a
 * Gemini thought signature on a function call) gets a reasoning item of
 * its own, so a tool round trip still carries it.
 */
export async function* toResponseEvents(
  req: ResponsesRequest,
  chunks: AsyncIterable<ChatCompletionChunk>,
  id: string,
  createdAt: number,
): AsyncGenerator<ResponseEvent> {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>): ResponseEvent => ({ type, sequence_number: sequence++, ...fields });
  const ids = new OutputItemIds(id.replace(/^resp_/, ''));
  const output: OutputItem[] = [];
  const inProgress = () => responseObject(req, { id, createdAt, status: 'in_progress', output: [], usage: null });
  yield event('response.created', { response: inProgress() });
  yield event('response.in_progress', { response: inProgress() });

  let text: OpenText | undefined;
  const calls = new Map<number, OpenCall>();
  const lateDetails: ReasoningDetail[] = [];
  let usage: ChatUsage | undefined;
  let finishReason: string | null = null;

  function* closeText(): Generator<ResponseEvent> {
    if (!text) return;
    const open = text;
    text = undefined;
    const base = { item_id: open.id, output_index: open.index };
    if (open.kind === 'reasoning') {
      if (open.text) {
        yield event('response.reasoning_summary_text.done', { ...base, summary_index: 0, text: open.text });
        yield event('response.reasoning_summary_part.done', { ...base, summary_index: 0, part: { type: 'summary_text', text: open.text } });
      }
      output[open.index] = reasoningItem(open.id, open.text, open.details);
    } else {
      yield event('response.output_text.done', { ...base, content_index: 0, text: open.text, logprobs: [] });
      yield event('response.content_part.done', { ...base, content_index: 0, part: { type: 'output_text', text: open.text, annotations: [] } });
      output[open.index] = messageItem(open.id, open.text);
    }
    yield event('response.output_item.done', { output_index: open.index, item: output[open.index] });
  }

  function* closeCalls(): Generator<ResponseEvent> {
    for (const call of calls.values()) {
      const item = functionCallItem(call.id, { id: call.callId, type: 'function', function: { name: call.name, arguments: call.args } });
      output[call.index] = item;
      yield event('response.function_call_arguments.done', { item_id: call.id, output_index: call.index, name: call.name, arguments: call.args });
      yield event('response.output_item.done', { output_index: call.index, item });
    }
    calls.clear();
  }

  function* openText(kind: OpenText['kind']): Generator<ResponseEvent> {
    if (text?.kind === kind) return;
    yield* closeText();
    yield* closeCalls();
    const index = output.length;
    const itemId = ids.take(kind === 'reasoning' ? 'rs' : 'msg');
    text = { kind, index, id: itemId, text: '', details: [] };
    output.push(kind === 'reasoning' ? reasoningItem(itemId, '', []) : messageItem(itemId, '', 'in_progress'));
    if (kind === 'reasoning') {
      yield event('response.output_item.added', { output_index: index, item: { type: 'reasoning', id: itemId, summary: [] } });
    } else {
      yield event('response.output_item.added', { output_index: index, item: { type: 'message', id: itemId, status: 'in_progress', role: 'assistant', content: [] } });
      yield event('response.content_part.added', { item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    }
  }

  /** An MCP call the gateway ran between the model's turns: an `mcp_call` item, added and done at once (it is over when the chunk tells of it). */
  function* mcpCall(made: McpCallMade): Generator<ResponseEvent> {
    yield* closeText();
    yield* closeCalls();
    const index = output.length;
    const item = mcpCallItem(made);
    output.push(item);
    const base = { item_id: made.id, output_index: index };
    yield event('response.output_item.added', { output_index: index, item: { ...item, output: null, error: null, status: 'in_progress' } });
    yield event('response.mcp_call.in_progress', base);
    yield event('response.mcp_call_arguments.done', { ...base, arguments: made.arguments });
    yield event(made.error === null ? 'response.mcp_call.completed' : 'response.mcp_call.failed', base);
    yield event('response.output_item.done', { output_index: index, item });
  }

  for await (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta;
    if (delta.reasoning_content) {
      yield* openText('reasoning');
      if (!text!.text) yield event('response.reasoning_summary_part.added', { item_id: text!.id, output_index: text!.index, summary_index: 0, part: { type: 'summary_text', text: '' } });
      text!.text += delta.reasoning_content;
      yield event('response.reasoning_summary_text.delta', { item_id: text!.id, output_index: text!.index, summary_index: 0, delta: delta.reasoning_content });
    }
    if (delta.reasoning_details?.length) {
      if (text?.kind === 'reasoning') text.details.push(...delta.reasoning_details);
      else lateDetails.push(...delta.reasoning_details);
    }
    if (delta.content) {
      yield* openText('message');
      text!.text += delta.content;
      yield event('response.output_text.delta', { item_id: text!.id, output_index: text!.index, content_index: 0, delta: delta.content, logprobs: [] });
    }
    for (const made of (delta.mcp_calls as McpCallMade[] | undefined) ?? []) yield* mcpCall(made);
    for (const call of delta.tool_calls ?? []) {
      let open = calls.get(call.index);
      if (!open) {
        yield* closeText();
        open = { index: output.length, id: ids.take('fc'), callId: call.id ?? '', name: call.function?.name ?? '', args: '' };
        calls.set(call.index, open);
        output.push(functionCallItem(open.id, { id: open.callId, type: 'function', function: { name: open.name, arguments: '' } }, 'in_progress'));
        yield event('response.output_item.added', { output_index: open.index, item: output[open.index] });
      }
      const argumentsDelta = call.function?.arguments;
      if (argumentsDelta) {
        open.args += argumentsDelta;
        yield event('response.function_call_arguments.delta', { item_id: open.id, output_index: open.index, delta: argumentsDelta });
      }
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  yield* closeText();
  yield* closeCalls();
  if (lateDetails.length) {
    const index = output.length;
    const item = reasoningItem(ids.take('rs'), '', lateDetails);
    output.push(item);
    yield event('response.output_item.added', { output_index: index, item });
    yield event('response.output_item.done', { output_index: index, item });
  }
  const incomplete = finishReason === 'length';
  const response = responseObject(req, {
    id, createdAt, status: incomplete ? 'incomplete' : 'completed', output, usage: usage ? responseUsage(usage) : null,
    ...(incomplete ? { incompleteReason: 'max_output_tokens' } : {}),
  });
  yield event(incomplete ? 'response.incomplete' : 'response.completed', { response });
}
