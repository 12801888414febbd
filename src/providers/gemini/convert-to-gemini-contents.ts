import type { ChatMessage, ReasoningDetail } from '../chat-request';
import { UnsupportedParameterError } from '../unsupported-parameter';
import type { ImageDownloadLimits } from './download-image';
import type { GeminiContent, GeminiPart } from './gemini-api';
import { GeminiImageParts } from './gemini-image-part';
import { parseDataUrl } from '../data-url';

/**
 * OpenAI chat messages as Gemini contents. Gemini has two roles: system and
 * developer messages become the `systemInstruction`, assistant turns are
 * `model` contents, and tool results travel as `functionResponse` parts of a
 * `user` content, addressed by function name (Gemini 2.5 gives calls no ids).
 * Consecutive contents of one role are merged, so that the answers to
 * parallel calls arrive in one turn as Gemini requires.
 * @see https://ai.google.dev/gemini-api/docs/function-calling
 */
export interface GeminiConversation {
  systemInstruction?: { parts: GeminiPart[] };
  contents: GeminiContent[];
}

export interface ContentConversionOptions {
  imageDownload: ImageDownloadLimits;
  signal?: AbortSignal;
}

type TextContent = string | { type: 'text'; text: string }[];
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;
type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

export async function convertToGeminiContents(messages: ChatMessage[], options: ContentConversionOptions): Promise<GeminiConversation> {
  const functionNames = functionNamesByCallId(messages);
  const images = new GeminiImageParts(options.imageDownload, options.signal);
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...textParts(message.content));
        break;
      case 'user':
        contents.push({ role: 'user', parts: userParts(message.content, `messages[${index}]`, images) });
        break;
      case 'assistant':
        contents.push({ role: 'model', parts: modelParts(message, `messages[${index}]`) });
        break;
      case 'tool':
        contents.push({ role: 'user', parts: [functionResponsePart(message, `messages[${index}]`, functionNames)] });
        break;
    }
  }
  // Every image of the request, in every message, under one concurrency limit and one byte budget.
  await images.downloadAll();
  const merged = mergeConsecutiveRoles(contents.filter((content) => content.parts.length > 0));
  return system.length ? { systemInstruction: { parts: system }, contents: merged } : { contents: merged };
}

function textParts(content: TextContent): GeminiPart[] {
  return typeof content === 'string' ? [{ text: content }] : content.map((part) => ({ text: part.text }));
}

function joinedText(content: TextContent): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

/** Image parts given by URL are filled in later, by `GeminiImageParts.downloadAll`. */
function userParts(content: Extract<ChatMessage, { role: 'user' }>['content'], at: string, images: GeminiImageParts): GeminiPart[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part, index) => {
    if (part.type === 'text') return { text: part.text };
    if (part.type === 'file') {
      // Documents (PDFs, text) go inline with their media type, as images do.
      const { mediaType, base64 } = parseDataUrl(part.file.file_data!)!;
      return { inlineData: { mimeType: mediaType, data: base64 } };
    }
    return images.part(part.image_url.url, `${at}.content[${index}].image_url.url`);
  });
}

/** Text first, then one `functionCall` part per tool call; empty text is left out, as Gemini rejects empty parts. */
function modelParts(message: AssistantMessage, at: string): GeminiPart[] {
  const parts: GeminiPart[] = message.content ? textParts(message.content).filter((part) => part.text !== '') : [];
  const callParts = new Map<string, GeminiPart>();
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    const part = { functionCall: { name: call.function.name, args: parseArguments(call.function.arguments, `${at}.tool_calls[${index}].function.arguments`) } };
    callParts.set(call.id, part);
    parts.push(part);
  }
  restoreThoughtSignatures(parts, callParts, message.reasoning_details ?? []);
  return parts;
}

/**
 * Puts each thought signature the gateway returned back where Gemini sent
 * it: on the call it came with, or (with no call id) on the turn's first
 * text part. Other providers' reasoning items are not Gemini's to read.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
function restoreThoughtSignatures(parts: GeminiPart[], callParts: Map<string, GeminiPart>, details: ReasoningDetail[]): void {
  for (const detail of details) {
    if (detail.type !== 'thought_signature') continue;
    const target = detail.tool_call_id !== undefined ? callParts.get(detail.tool_call_id) : parts.find((part) => part.text !== undefined);
    if (target) target.thoughtSignature = detail.signature;
  }
}

/** Gemini takes arguments as a JSON object; OpenAI clients send them as a string, empty for a call without arguments. */
function parseArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const value = parseJson(text);
  if (value === undefined) throw new UnsupportedParameterError(param, `"${param}" is not valid JSON; Gemini needs function arguments as a JSON object.`);
  if (!isPlainObject(value)) throw new UnsupportedParameterError(param, `"${param}" must be a JSON object; Gemini needs function arguments as a JSON object.`);
  return value;
}

function functionResponsePart(message: ToolMessage, at: string, functionNames: Map<string, string>): GeminiPart {
  const name = functionNames.get(message.tool_call_id);
  if (name === undefined) {
    const param = `${at}.tool_call_id`;
    throw new UnsupportedParameterError(param, `"${param}" names no tool call of an assistant message; Gemini needs the called function's name.`);
  }
  return { functionResponse: { name, response: functionResponseObject(joinedText(message.content)) } };
}

/** A JSON object result is sent as it is; anything else is wrapped, as Gemini's `response` must be an object. */
function functionResponseObject(content: string): Record<string, unknown> {
  const value = parseJson(content);
  return isPlainObject(value) ? value : { result: content };
}

function functionNamesByCallId(messages: ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  }
  return names;
}

function mergeConsecutiveRoles(contents: GeminiContent[]): GeminiContent[] {
  const merged: GeminiContent[] = [];
  for (const content of contents) {
    const previous = merged[merged.length - 1];
    if (previous?.role === content.role) previous.parts.push(...content.parts);
    else merged.push({ role: content.role, parts: [...content.parts] });
  }
  return merged;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
