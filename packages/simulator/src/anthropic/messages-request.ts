import type { JsonSchema } from '../json-schema-sample';
import { type AnthropicError, fieldRequired, invalidRequest } from './errors';
import type { OutputFormat } from './output-format';

/**
 * The parts of a Messages request the simulator reads, and the structural
 * checks the real API makes first, with its messages. Fields it does not
 * read are accepted and ignored.
 * @see https://docs.anthropic.com/en/api/messages
 */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: InputMessage[];
  system?: string | ContentBlock[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  stream?: boolean;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  thinking?: ThinkingConfig;
  /** Claude 4.5 and later: how much the model spends on its answer, thinking included; the JSON schema of a structured output. */
  output_config?: { effort?: string; format?: OutputFormat };
  /** The structured-outputs beta's name for `output_config.format`. */
  output_format?: OutputFormat;
}

export interface InputMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/** Any content block; which fields it has depends on `type`. */
export interface ContentBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  cache_control?: CacheControl;
}

/** @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface ToolDefinition {
  name: string;
  type?: string;
  description?: string;
  input_schema?: JsonSchema;
  cache_control?: CacheControl;
}

export interface ToolChoice {
  type: 'auto' | 'any' | 'tool' | 'none';
  name?: string;
  disable_parallel_tool_use?: boolean;
}

export type ThinkingConfig = { type: 'enabled'; budget_tokens?: number } | { type: 'disabled' } | { type: 'adaptive' };

export type Validated = { ok: true; request: MessagesRequest } | { ok: false; error: AnthropicError };

export function validateMessagesRequest(json: object): Validated {
  const body: { model?: unknown; max_tokens?: unknown; messages?: unknown } = json;
  if (typeof body.model !== 'string' || body.model === '') return { ok: false, error: fieldRequired('model') };
  if (body.max_tokens === undefined) return { ok: false, error: fieldRequired('max_tokens') };
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
    return { ok: false, error: invalidRequest('max_tokens: Input should be greater than or equal to 1') };
  }
  return validateMessages(json);
}

/** The checks of `model` and `messages` alone, as `count_tokens` makes them (it takes no `max_tokens`). */
export function validateMessages(json: object): Validated {
  const body: { model?: unknown; messages?: unknown } = json;
  if (typeof body.model !== 'string' || body.model === '') return { ok: false, error: fieldRequired('model') };
  if (body.messages === undefined) return { ok: false, error: fieldRequired('messages') };
  if (!Array.isArray(body.messages)) return { ok: false, error: invalidRequest('messages: Input should be a valid list') };
  const problem = messagesProblem(body.messages);
  return problem ? { ok: false, error: invalidRequest(problem) } : { ok: true, request: json as MessagesRequest };
}

/** Turns must be well formed, start with the user, and alternate. */
function messagesProblem(messages: unknown[]): string | undefined {
  if (messages.length === 0) return 'messages: List should have at least 1 item after validation, not 0';
  for (const [index, message] of messages.entries()) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'user' && role !== 'assistant') return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    if (typeof content !== 'string' && !(Array.isArray(content) && content.every(isBlock))) return `messages.${index}.content: Input should be a valid list`;
  }
  const roles = (messages as InputMessage[]).map((message) => message.role);
  if (roles[0] !== 'user') return 'messages: first message must use the "user" role';
  const repeated = roles.find((role, index) => index > 0 && roles[index - 1] === role);
  return repeated ? `messages: roles must alternate between "user" and "assistant", but found multiple "${repeated}" roles in a row` : undefined;
}

function isBlock(value: unknown): value is ContentBlock {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** A message's content as blocks; a plain string is one text block. */
export function contentBlocks(content: string | ContentBlock[]): ContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The text blocks of some content, joined. */
export function textOf(content: string | ContentBlock[]): string {
  return contentBlocks(content)
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
}

/**
 * Where directives are read from: the latest thing the end user wrote, the
 * last user turn with text (turns that only carry tool results do not count),
 * so that it is the same text the OpenAI simulator reads for the same chat.
 */
export function lastUserText(request: MessagesRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index]!;
    if (message.role === 'user' && contentBlocks(message.content).some((block) => block.type === 'text')) return textOf(message.content);
  }
  return '';
}

export function lastMessage(request: MessagesRequest): InputMessage {
  return request.messages[request.messages.length - 1]!;
}

export function toolResults(message: InputMessage): ContentBlock[] {
  return contentBlocks(message.content).filter((block) => block.type === 'tool_result');
}
