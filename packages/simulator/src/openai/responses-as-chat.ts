import type { ChatMessage, ChatRequest, ContentPart as ChatContentPart, ResponseFormat } from './chat-request';
import { type ContentPart, type InputItem, type ResponsesRequest, type ResponsesTextFormat, contentText, inputItems, isMessageItem } from './responses-request';

/**
 * A Responses request as the Chat Completions request the simulated model
 * already answers. There is one simulated model behind both wires, so the
 * same conversation gets the same text, the same tool choice and the same
 * tool arguments through either API, and a test of a bridge between the two
 * can compare them. Only what decides the answer is carried over:
 * instructions become a system turn, tool calls and outputs become the
 * assistant's `tool_calls` and `tool` turns, reasoning items are left out
 * (they never change a simulated answer).
 */
export function answeringChatRequest(request: ResponsesRequest): ChatRequest {
  const messages: ChatMessage[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  for (const item of inputItems(request)) {
    const message = chatMessage(item);
    if (message) messages.push(message);
  }
  if (messages.length === 0) messages.push({ role: 'user', content: '' });
  const chat: ChatRequest = { model: request.model, messages };
  if (request.tools) chat.tools = request.tools.map((tool) => ({ type: tool.type, function: { name: tool.name, parameters: tool.parameters ?? undefined } }));
  const choice = request.tool_choice;
  if (choice) chat.tool_choice = typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
  if (typeof request.parallel_tool_calls === 'boolean') chat.parallel_tool_calls = request.parallel_tool_calls;
  chat.max_completion_tokens = request.max_output_tokens ?? null;
  chat.reasoning_effort = request.reasoning?.effort ?? null;
  const format = responseFormat(request.text?.format);
  if (format) chat.response_format = format;
  return chat;
}

function chatMessage(item: InputItem): ChatMessage | undefined {
  if (isMessageItem(item)) return { role: item.role, content: typeof item.content === 'string' ? item.content : item.content.map(chatPart) };
  switch (item.type) {
    case 'function_call':
      return { role: 'assistant', content: null, tool_calls: [{ function: { name: item.name, arguments: item.arguments } }] };
    case 'function_call_output':
      return { role: 'tool', tool_call_id: item.call_id, content: contentText(item.output) };
    default:
      return undefined;
  }
}

/** Text stays text; anything else becomes a part the chat model reads no text from. */
function chatPart(part: ContentPart): ChatContentPart {
  if (part.type === 'input_text' || part.type === 'output_text') return { type: 'text', text: part.text };
  return { type: part.type };
}

/** Responses puts a schema's name and schema beside `type`; Chat Completions nests them in `json_schema`. */
function responseFormat(format: ResponsesTextFormat | undefined): ResponseFormat | undefined {
  if (format?.type === 'json_object') return { type: 'json_object' };
  if (format?.type === 'json_schema') return { type: 'json_schema', json_schema: { name: format.name ?? 'response', schema: format.schema } };
  return undefined;
}
