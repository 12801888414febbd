import type { CacheControl, ChatMessage, ReasoningDetail } from '../chat-request';
import { parseDataUrl } from '../data-url';
import { UnsupportedParameterError } from '../unsupported-parameter';

/**
 * OpenAI-shaped messages as Anthropic's `system` and `messages`. Anthropic
 * has no system role (system and developer texts move to the top-level
 * `system`, in order), carries tool results inside a user turn, and wants
 * user and assistant turns to alternate, so neighbours of one role merge.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/docs/build-with-claude/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks
 */

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

export type AnthropicImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export type AnthropicDocumentSource = { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'text'; media_type: 'text/plain'; data: string };

export type AnthropicThinkingBlockParam = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export type AnthropicContentBlockParam =
  | AnthropicTextBlock
  | AnthropicThinkingBlockParam
  | { type: 'image'; source: AnthropicImageSource; cache_control?: CacheControl }
  | { type: 'document'; source: AnthropicDocumentSource; title?: string; cache_control?: CacheControl }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | AnthropicTextBlock[] };

export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: AnthropicContentBlockParam[];
}

export interface AnthropicPrompt {
  system: AnthropicTextBlock[];
  messages: AnthropicMessageParam[];
}

export interface ConversionOptions {
  /** Whether thinking is on for this call; only then do earlier thinking blocks go back. */
  thinkingEnabled: boolean;
}

export function convertToAnthropicMessages(messages: readonly ChatMessage[], options: ConversionOptions): AnthropicPrompt {
  const system: AnthropicTextBlock[] = [];
  const turns: AnthropicMessageParam[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') system.push(...textBlocks(message.content));
    else turns.push(convertTurn(message, index, options));
  });
  return { system, messages: mergeSameRoleNeighbours(turns.filter((turn) => turn.content.length > 0)) };
}

function convertTurn(message: Exclude<ChatMessage, { role: 'system' | 'developer' }>, index: number, options: ConversionOptions): AnthropicMessageParam {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: typeof message.content === 'string' ? textBlocks(message.content) : message.content.flatMap(userPart) };
    case 'tool':
      return { role: 'user', content: [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: toolResultContent(message.content) }] };
    case 'assistant':
      return {
        role: 'assistant',
        content: [
          ...(options.thinkingEnabled ? thinkingBlocks(message.reasoning_details ?? []) : []),
          ...textBlocks(message.content ?? ''),
          ...(message.tool_calls ?? []).map((call, callIndex) => ({
            type: 'tool_use' as const,
            id: call.id,
            name: call.function.name,
            input: parseToolArguments(call.function.arguments, `messages[${index}].tool_calls[${callIndex}].function.arguments`),
          })),
        ],
      };
  }
}

/**
 * Anthropic refuses empty text blocks, so empty texts are left out. A part's
 * `cache_control` (the prompt-caching breakpoint a client may set) is kept.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
function textBlocks(content: string | readonly { text: string; cache_control?: CacheControl }[]): AnthropicTextBlock[] {
  const parts = typeof content === 'string' ? [{ text: content }] : content;
  return parts
    .filter((part) => part.text.length > 0)
    .map((part) => (part.cache_control ? { type: 'text', text: part.text, cache_control: part.cache_control } : { type: 'text', text: part.text }));
}

type UserPart = Exclude<Extract<ChatMessage, { role: 'user' }>['content'], string>[number];

function userPart(part: UserPart): AnthropicContentBlockParam[] {
  if (part.type === 'text') return textBlocks([part]);
  const cache = part.cache_control ? { cache_control: part.cache_control } : {};
  if (part.type === 'file') return [{ ...documentBlock(part.file.file_data!, part.file.filename), ...cache }];
  return [{ type: 'image', source: imageSource(part.image_url.url), ...cache }];
}

/** Text-like documents Anthropic reads as plain text. */
const PLAIN_TEXT_TYPES = /^(text\/[\w.+-]+|application\/(json|xml|x-yaml|yaml|csv))$/;

/**
 * An inline document: a PDF as base64, a text-like file as its text. Other
 * kinds (Office files, archives) Anthropic cannot read, and are refused by
 * name rather than sent to fail upstream.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/pdf-support
 */
function documentBlock(fileData: string, filename: string | undefined): AnthropicContentBlockParam {
  const parsed = parseDataUrl(fileData)!;
  const title = filename ? { title: filename } : {};
  if (parsed.mediaType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: parsed.base64 }, ...title };
  if (PLAIN_TEXT_TYPES.test(parsed.mediaType)) {
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: Buffer.from(parsed.base64, 'base64').toString('utf8') }, ...title };
  }
  throw new UnsupportedParameterError('messages', `Anthropic models read PDF and plain-text documents, not ${parsed.mediaType}${filename ? ` ("${filename}")` : ''}; convert it to PDF or text.`);
}

/**
 * An inline image as base64 with its media type, a web image by its URL
 * (the request schema admits only these two kinds of URL).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/vision
 */
export function imageSource(url: string): AnthropicImageSource {
  const inline = parseDataUrl(url);
  if (!inline) return { type: 'url', url };
  return { type: 'base64', media_type: inline.mediaType === 'image/jpg' ? 'image/jpeg' : inline.mediaType, data: inline.base64 };
}

function toolResultContent(content: string | readonly { text: string }[]): string | AnthropicTextBlock[] {
  return typeof content === 'string' ? content : textBlocks(content);
}

/**
 * The signed thinking state of an earlier answer, unchanged and first in its
 * turn: with thinking on, Anthropic rejects a tool-use turn that does not
 * start with it. Other providers' items (Gemini's thought signatures) mean
 * nothing here. With thinking off they are left out, as Anthropic would
 * ignore them in earlier turns and rejects them in a final assistant turn.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
 */
function thinkingBlocks(details: readonly ReasoningDetail[]): AnthropicThinkingBlockParam[] {
  return details.flatMap((detail): AnthropicThinkingBlockParam[] => {
    if (detail.type === 'thinking') return [{ type: 'thinking', thinking: detail.thinking, signature: detail.signature }];
    if (detail.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: detail.data }];
    return [];
  });
}

/** Tool input must be a JSON object; models sometimes send no arguments at all for a tool without parameters. */
function parseToolArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UnsupportedParameterError(param, `"${param}" is not valid JSON; Anthropic needs the tool call's input as a JSON object.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UnsupportedParameterError(param, `"${param}" is not a JSON object; Anthropic needs the tool call's input as a JSON object.`);
  }
  return parsed as Record<string, unknown>;
}

function mergeSameRoleNeighbours(turns: readonly AnthropicMessageParam[]): AnthropicMessageParam[] {
  const merged: AnthropicMessageParam[] = [];
  for (const turn of turns) {
    const previous = merged[merged.length - 1];
    if (previous?.role === turn.role) previous.content = [...previous.content, ...turn.content];
    else merged.push({ role: turn.role, content: [...turn.content] });
  }
  return merged;
}
