import type { JsonSchema } from '../json-schema-sample';
import { type OpenAIError, invalidParameter, missingParameter } from './errors';
import { inputItemsError } from './responses-input-items';
import { integerBelowMinimum, invalidType } from './responses-errors';

/**
 * The parts of a Responses request the simulator reads. Like the real API it
 * accepts fields it does not read; the fields it reads are checked as the
 * real API checks them, with its messages, so that a gateway that builds a
 * wrong body hears about it from the simulator as it would from OpenAI.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export interface ResponsesRequest {
  model: string;
  input: string | InputItem[];
  instructions?: string | null;
  tools?: FunctionToolDefinition[] | null;
  tool_choice?: ResponsesToolChoice | null;
  parallel_tool_calls?: boolean | null;
  max_output_tokens?: number | null;
  max_tool_calls?: number | null;
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  include?: string[] | null;
  text?: { format?: ResponsesTextFormat; verbosity?: string | null } | null;
  stream?: boolean | null;
  stream_options?: { include_obfuscation?: boolean | null } | null;
  store?: boolean | null;
  temperature?: number | null;
  top_p?: number | null;
  top_logprobs?: number | null;
  truncation?: string | null;
  metadata?: { [key: string]: string } | null;
  previous_response_id?: string | null;
  prompt_cache_key?: string | null;
  safety_identifier?: string | null;
  service_tier?: string | null;
  user?: string | null;
}

/** Tools in the Responses API are flat: no nested `function` object as in Chat Completions. */
export interface FunctionToolDefinition {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: JsonSchema | null;
  strict?: boolean | null;
}

export type ResponsesToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name?: string; schema?: JsonSchema; strict?: boolean | null };

export type InputItem = MessageItem | ReasoningItem | FunctionCallItem | FunctionCallOutputItem;

export interface MessageItem {
  type?: 'message';
  role: 'user' | 'system' | 'developer' | 'assistant';
  content: string | ContentPart[];
}

/** Input parts for user, system and developer turns; `output_text` and `refusal` for assistant turns sent back. */
export type ContentPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url?: string; file_id?: string; detail?: string }
  | { type: 'input_file'; file_data?: string; file_id?: string; file_url?: string; filename?: string }
  | { type: 'output_text'; text: string }
  | { type: 'refusal'; refusal: string };

export interface ReasoningItem {
  type: 'reasoning';
  id?: string;
  summary: { type: 'summary_text'; text: string }[];
  encrypted_content?: string | null;
}

export interface FunctionCallItem {
  type: 'function_call';
  id?: string;
  call_id: string;
  name: string;
  arguments: string;
}

export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  /** A string, or a list of input parts (a tool may return images and files too). */
  output: string | ContentPart[];
}

const TOOL_CHOICE_MODES = ['none', 'auto', 'required'];
/** The API refuses smaller caps: a model needs a few tokens to say anything at all. */
const MIN_OUTPUT_TOKENS = 16;

export function validateResponsesRequest(json: object): { ok: true; request: ResponsesRequest } | { ok: false; error: OpenAIError } {
  const error = requestError(json as { [field: string]: unknown });
  return error ? { ok: false, error } : { ok: true, request: json as ResponsesRequest };
}

function requestError(body: { [field: string]: unknown }): OpenAIError | undefined {
  if (typeof body.model !== 'string' || body.model === '') return missingParameter('model');
  if (body.input === undefined || body.input === null) return missingParameter('input');
  if (typeof body.input !== 'string') {
    if (!Array.isArray(body.input)) return invalidType('input', 'a string or an array of input items', body.input);
    if (body.input.length === 0) {
      return invalidParameter('input', "Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead.");
    }
  }
  return (typeof body.input === 'string' ? undefined : inputItemsError(body.input)) ?? toolsError(body.tools) ?? toolChoiceShapeError(body.tool_choice) ?? maxOutputTokensError(body.max_output_tokens);
}

/** The mistake a gateway makes most: sending Chat Completions' nested tool shape, which has no top-level `name`. */
function toolsError(tools: unknown): OpenAIError | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) return invalidType('tools', 'an array', tools);
  for (const [index, tool] of tools.entries()) {
    if (typeof tool !== 'object' || tool === null) return invalidType(`tools[${index}]`, 'an object', tool);
    const { type, name } = tool as { type?: unknown; name?: unknown };
    if (type !== 'function') return invalidParameter(`tools[${index}].type`, `Invalid value: '${String(type)}'. The simulator serves function tools only.`);
    if (typeof name !== 'string' || name === '') return missingParameter(`tools[${index}].name`);
  }
  return undefined;
}

function toolChoiceShapeError(choice: unknown): OpenAIError | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') {
    return TOOL_CHOICE_MODES.includes(choice)
      ? undefined
      : invalidParameter('tool_choice', `Invalid value: '${choice}'. Supported values are: 'none', 'auto', and 'required'.`);
  }
  if (typeof choice !== 'object') return invalidType('tool_choice', 'a string or an object', choice);
  const { type, name } = choice as { type?: unknown; name?: unknown };
  if (type !== 'function') return invalidParameter('tool_choice.type', `Invalid value: '${String(type)}'. The simulator serves function tools only.`);
  return typeof name === 'string' && name !== '' ? undefined : missingParameter('tool_choice.name');
}

function maxOutputTokensError(limit: unknown): OpenAIError | undefined {
  if (limit === undefined || limit === null) return undefined;
  if (typeof limit !== 'number' || !Number.isInteger(limit)) return invalidType('max_output_tokens', 'an integer', limit);
  return limit >= MIN_OUTPUT_TOKENS ? undefined : integerBelowMinimum('max_output_tokens', MIN_OUTPUT_TOKENS, limit);
}

/** The input as a list of items: a string input is one user message. */
export function inputItems(request: ResponsesRequest): InputItem[] {
  return typeof request.input === 'string' ? [{ type: 'message', role: 'user', content: request.input }] : request.input;
}

export function isMessageItem(item: InputItem): item is MessageItem {
  return item.type === undefined || item.type === 'message';
}

/** The text of a message's content or a tool's output, its text parts joined, other parts left out. */
export function contentText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.flatMap((part) => ('text' in part && typeof part.text === 'string' ? [part.text] : [])).join('\n');
}

/** Where directives are read from: the latest thing the end user wrote. */
export function lastUserText(request: ResponsesRequest): string {
  const items = inputItems(request);
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (item && isMessageItem(item) && item.role === 'user') return contentText(item.content);
  }
  return '';
}
