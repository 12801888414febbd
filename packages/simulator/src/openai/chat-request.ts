import type { JsonSchema } from '../json-schema-sample';
import { type OpenAIError, invalidParameter, missingModel, missingParameter } from './errors';

/**
 * The parts of a Chat Completions request the simulator reads. Like the real
 * API it is permissive: fields it does not know are accepted and ignored.
 * @see https://platform.openai.com/docs/api-reference/chat
 */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean; include_obfuscation?: boolean } | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  reasoning_effort?: string | null;
  tools?: ChatTool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: ResponseFormat;
  service_tier?: string | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
}

export interface ChatMessage {
  role: string;
  content?: string | ContentPart[] | null;
  name?: string;
  tool_calls?: { function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
}

export interface ContentPart {
  type: string;
  text?: string;
  image_url?: { url: string; detail?: string };
}

export interface ChatTool {
  type: string;
  function?: { name: string; description?: string; parameters?: JsonSchema };
}

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema?: JsonSchema; strict?: boolean } };

/** The few checks the real API makes before anything else, with its messages. */
export function validateChatRequest(json: object): { ok: true; request: ChatRequest } | { ok: false; error: OpenAIError } {
  const body: { model?: unknown; messages?: unknown } = json;
  if (typeof body.model !== 'string' || body.model === '') return { ok: false, error: missingModel() };
  if (body.messages === undefined) return { ok: false, error: missingParameter('messages') };
  if (!Array.isArray(body.messages) || !body.messages.every(isMessage)) {
    return { ok: false, error: invalidParameter('messages', "Invalid 'messages': expected an array of message objects, each with a 'role'.") };
  }
  if (body.messages.length === 0) {
    const message = "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.";
    return { ok: false, error: invalidParameter('messages', message) };
  }
  return { ok: true, request: json as ChatRequest };
}

/** The text of a message's content, parts joined, non-text parts left out. */
export function messageText(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

export function lastMessage(request: ChatRequest): ChatMessage {
  const message = request.messages[request.messages.length - 1];
  if (!message) throw new Error('validateChatRequest guarantees at least one message');
  return message;
}

/** Where directives are read from: the latest thing the end user wrote. */
export function lastUserText(request: ChatRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message?.role === 'user') return messageText(message);
  }
  return '';
}

function isMessage(value: unknown): value is ChatMessage {
  return typeof value === 'object' && value !== null && typeof (value as { role?: unknown }).role === 'string';
}
