import { thinkingText } from '../answer-text';
import { hashString } from '../deterministic-random';
import { type Directives, stripDirectives } from '../directives';
import { randomHexId } from '../ids';
import { type ChatAnswer, buildChatAnswer } from './chat-answer';
import { lastMessage, messageText } from './chat-request';
import { isReasoningModel } from './reasoning-models';
import { answeringChatRequest } from './responses-as-chat';
import type { ResponsesRequest } from './responses-request';

/**
 * The simulated model's answer as Responses output items: for a reasoning
 * model a `reasoning` item first (with a summary when one is asked for, and
 * its state sealed in `encrypted_content` when `include` asks for it), then
 * a `message`, or one `function_call` item per tool called. The answer itself
 * is the chat simulator's (see responses-as-chat.ts); only its dress differs.
 * Keys are in the order of the recorded api.openai.com stream
 * (test/fixtures/recorded/openai-responses/reasoning-encrypted-content.chunks.txt).
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */

export interface OutputText {
  type: 'output_text';
  annotations: [];
  logprobs: [];
  text: string;
}

export interface MessageOutput {
  id: string;
  type: 'message';
  status: 'completed' | 'incomplete';
  content: OutputText[];
  role: 'assistant';
}

export interface FunctionCallOutput {
  id: string;
  type: 'function_call';
  status: 'completed';
  arguments: string;
  call_id: string;
  name: string;
}

export interface ReasoningOutput {
  id: string;
  type: 'reasoning';
  encrypted_content?: string;
  summary: { type: 'summary_text'; text: string }[];
}

export type OutputItem = ReasoningOutput | MessageOutput | FunctionCallOutput;

export interface ResponsesAnswer {
  output: OutputItem[];
  /** `incomplete` when `max_output_tokens` cut the answer short. */
  status: 'completed' | 'incomplete';
  /** The chat answer the items dress, for the usage. */
  chat: ChatAnswer;
}

const ENCRYPTED_CONTENT_INCLUDE = 'reasoning.encrypted_content';
const SUMMARY_WORDS = 24;
/** Fernet's version byte and a timestamp, base64: what every real `encrypted_content` starts with. */
const FERNET_PREFIX = 'gAAAAAB';
/** OpenAI's item and response ids: a prefix and 50 hex digits. */
const OPENAI_ITEM_ID_DIGITS = 50;

export function buildResponsesAnswer(request: ResponsesRequest, directives: Directives): ResponsesAnswer {
  const chatRequest = answeringChatRequest(request);
  const chat = buildChatAnswer(chatRequest, directives);
  const output: OutputItem[] = [];
  const last = lastMessage(chatRequest);
  if (isReasoningModel(request.model)) output.push(reasoningItem(request, chat, last.role === 'user' ? stripDirectives(messageText(last)) : undefined));
  if (chat.kind === 'tool_calls') {
    output.push(...chat.toolCalls.map((call): FunctionCallOutput => ({ id: itemId('fc_'), type: 'function_call', status: 'completed', arguments: call.arguments, call_id: call.id, name: call.name })));
    return { output, status: 'completed', chat };
  }
  const status = chat.finishReason === 'length' ? 'incomplete' : 'completed';
  // A budget that reasoning used up leaves no message at all, as with OpenAI.
  if (chat.content !== '' || status === 'completed') {
    output.push({ id: itemId('msg_'), type: 'message', status, content: [{ type: 'output_text', annotations: [], logprobs: [], text: chat.content }], role: 'assistant' });
  }
  return { output, status, chat };
}

export function itemId(prefix: string): string {
  return randomHexId(prefix, OPENAI_ITEM_ID_DIGITS);
}

function reasoningItem(request: ResponsesRequest, chat: ChatAnswer, question: string | undefined): ReasoningOutput {
  const summaryText = request.reasoning?.summary ? reasoningSummary(chat, question) : undefined;
  const summary = summaryText === undefined ? [] : [{ type: 'summary_text' as const, text: summaryText }];
  const sealed = request.include?.includes(ENCRYPTED_CONTENT_INCLUDE) ? { encrypted_content: sealReasoning(chat, summaryText ?? '') } : {};
  return { id: itemId('rs_'), type: 'reasoning', ...sealed, summary };
}

/** A short, deterministic account of the thinking, titled in bold as OpenAI's summaries are. */
function reasoningSummary(chat: ChatAnswer, question: string | undefined): string {
  const plan = chat.kind === 'tool_calls' ? `Calling ${chat.toolCalls.map((call) => call.name).join(' and ')}` : 'Planning the answer';
  return `**${plan}**\n\n${thinkingText({ question, seed: hashString(answerFingerprint(chat)), wordCount: SUMMARY_WORDS })}`;
}

/**
 * Opaque reasoning state for a stateless round trip. The real API encrypts
 * the hidden reasoning; the simulator has none to hide, so it seals a
 * fingerprint of the answer in the same outward shape, which is all a
 * client may rely on.
 */
function sealReasoning(chat: ChatAnswer, summary: string): string {
  const state = JSON.stringify({ reasoning_tokens: chat.reasoningTokens, answer: hashString(answerFingerprint(chat)), summary: hashString(summary) });
  return FERNET_PREFIX + Buffer.from(state, 'utf8').toString('base64url');
}

function answerFingerprint(chat: ChatAnswer): string {
  return chat.kind === 'text' ? chat.content : chat.toolCalls.map((call) => `${call.name}(${call.arguments})`).join(',');
}
