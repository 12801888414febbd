import { isMcpTool } from '../../providers/mcp/mcp-tools-elsewhere';
import type { ReasoningDetail } from '../../providers/chat-request';
import type { ContentPart, InputItem, ResponsesRequest } from '../responses-request-schema';
import { decodeReasoningState } from '../../chat/carried-reasoning-state';

type ChatPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: string } } | { type: 'file'; file: { file_data: string; filename?: string } };

interface ChatMessageDraft {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | ChatPart[] | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  reasoning_content?: string;
  reasoning_details?: ReasoningDetail[];
}

/**
 * A Responses request as a chat completions request, for upstreams that
 * speak chat or their own protocol (the chat adapters take it from there).
 * Items map one to one: messages to messages (instructions first, as a
 * system message), `function_call` items to the assistant's tool calls,
 * `function_call_output` to tool messages, and `reasoning` items to the
 * reasoning state of the assistant turn they precede, so a tool round trip
 * keeps its signed reasoning. Files were dereferenced before (file-dereference.ts):
 * every `input_file` and `input_image` here is inline.
 * The result is checked by the chat request schema like any chat request.
 */
export function toChatRequest(req: ResponsesRequest): Record<string, unknown> {
  const messages: ChatMessageDraft[] = [];
  if (req.instructions) messages.push({ role: 'system', content: req.instructions });
  const items: InputItem[] = typeof req.input === 'string' ? [{ role: 'user', content: req.input }] : req.input;
  let assistant: ChatMessageDraft | undefined;
  /** The assistant turn being assembled from consecutive output items. */
  const openAssistant = () => {
    if (!assistant) {
      assistant = { role: 'assistant', content: null };
      messages.push(assistant);
    }
    return assistant;
  };
  for (const item of items) {
    const type = (item as { type?: string }).type ?? 'message';
    if (type === 'reasoning') {
      const reasoning = item as Extract<InputItem, { type: 'reasoning' }>;
      const turn = openAssistant();
      const text = reasoning.summary.map((s) => s.text).join('');
      if (text) turn.reasoning_content = (turn.reasoning_content ?? '') + text;
      const details = reasoning.encrypted_content ? decodeReasoningState(reasoning.encrypted_content) : undefined;
      if (details) turn.reasoning_details = [...(turn.reasoning_details ?? []), ...details];
    } else if (type === 'function_call') {
      const call = item as Extract<InputItem, { type: 'function_call' }>;
      const turn = openAssistant();
      turn.tool_calls = [...(turn.tool_calls ?? []), { id: call.call_id, type: 'function', function: { name: call.name, arguments: call.arguments } }];
    } else if (type === 'function_call_output') {
      const output = item as Extract<InputItem, { type: 'function_call_output' }>;
      assistant = undefined;
      messages.push({ role: 'tool', tool_call_id: output.call_id, content: typeof output.output === 'string' ? output.output : textOf(output.output) });
    } else {
      const message = item as Extract<InputItem, { role: string }>;
      if (message.role === 'assistant') {
        const turn = openAssistant();
        const text = typeof message.content === 'string' ? message.content : textOf(message.content);
        turn.content = (turn.content ?? '') + text;
      } else {
        assistant = undefined;
        const role = message.role === 'developer' ? 'system' : message.role;
        messages.push({ role, content: typeof message.content === 'string' ? message.content : message.content.map(toChatPart) });
      }
    }
  }
  return {
    model: req.model,
    messages: messages.map(finishTurn),
    ...(req.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    ...(req.tools?.length ? { tools: req.tools.map(toChatTool) } : {}),
    ...(req.tool_choice ? { tool_choice: toChatToolChoice(req.tool_choice) } : {}),
    ...(req.parallel_tool_calls !== undefined && req.parallel_tool_calls !== null ? { parallel_tool_calls: req.parallel_tool_calls } : {}),
    ...(req.max_output_tokens ? { max_completion_tokens: req.max_output_tokens } : {}),
    ...(req.temperature !== undefined && req.temperature !== null ? { temperature: req.temperature } : {}),
    ...(req.top_p !== undefined && req.top_p !== null ? { top_p: req.top_p } : {}),
    ...(req.reasoning?.effort ? { reasoning: { effort: req.reasoning.effort } } : {}),
    ...(req.text?.format ? { response_format: toResponseFormat(req.text.format) } : {}),
    ...(req.user ? { user: req.user } : {}),
    ...(req.prompt_cache_key ? { prompt_cache_key: req.prompt_cache_key } : {}),
    ...(req.prompt_cache_retention ? { prompt_cache_retention: req.prompt_cache_retention } : {}),
  };
}

/** An assistant turn with tool calls and no text has content null, as chat clients send it. */
function finishTurn(message: ChatMessageDraft): ChatMessageDraft {
  if (message.role === 'assistant' && message.content === '') return { ...message, content: null };
  return message;
}

function textOf(parts: readonly ContentPart[]): string {
  return parts.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : 'refusal' in part ? String(part.refusal) : '')).join('');
}

function toChatPart(part: ContentPart): ChatPart {
  switch (part.type) {
    case 'input_image':
      return { type: 'image_url', image_url: { url: (part as { image_url: string }).image_url, ...(part.detail ? { detail: part.detail } : {}) } };
    case 'input_file': {
      const file = part as { file_data: string; filename?: string | null };
      return { type: 'file', file: { file_data: file.file_data, ...(file.filename ? { filename: file.filename } : {}) } };
    }
    default:
      return { type: 'text', text: textOf([part]) };
  }
}

function toChatTool(tool: NonNullable<ResponsesRequest['tools']>[number]) {
  // An MCP tool is the same object in chat (the gateway's extension there).
  if (isMcpTool(tool)) return tool;
  const fn = tool as { name: string; description?: string | null; parameters?: Record<string, unknown> | null; strict?: boolean | null };
  return {
    type: 'function',
    function: {
      name: fn.name,
      ...(fn.description ? { description: fn.description } : {}),
      ...(fn.parameters ? { parameters: fn.parameters } : {}),
      ...(fn.strict !== undefined && fn.strict !== null ? { strict: fn.strict } : {}),
    },
  };
}

function toChatToolChoice(choice: NonNullable<ResponsesRequest['tool_choice']>) {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: (choice as { name: string }).name } };
}

/** Responses' `text.format` is chat's `response_format`, with the schema fields one level up. */
function toResponseFormat(format: { type: string; [field: string]: unknown }) {
  if (format.type !== 'json_schema') return { type: format.type };
  const { type: _type, ...schema } = format;
  return { type: 'json_schema', json_schema: schema };
}
