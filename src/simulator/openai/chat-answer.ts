import { hashString, seededRandom } from '../deterministic-random';
import { type Directives, stripDirectives } from '../directives';
import { generateWords } from '../generated-text';
import { sampleJsonSchema } from '../json-schema-sample';
import { countTextTokens, truncateToTokens } from '../token-count';
import { type ChatRequest, lastMessage, messageText } from './chat-request';
import { type GeneratedToolCall, generateToolCall, toolsToCall } from './chat-tools';
import { reasoningTokensFor } from './reasoning-models';

/**
 * The simulated model's answer: a pure function of the request (apart from
 * the random call ids), so a test can predict it by asking twice.
 */
export type ChatAnswer = TextAnswer | ToolCallAnswer;

export interface TextAnswer {
  kind: 'text';
  content: string;
  finishReason: 'stop' | 'length';
  reasoningTokens: number;
}

export interface ToolCallAnswer {
  kind: 'tool_calls';
  toolCalls: GeneratedToolCall[];
  finishReason: 'tool_calls';
  reasoningTokens: number;
}

const MIN_DEFAULT_WORDS = 20;
const DEFAULT_WORDS_SPREAD = 41;
const TOOL_OUTPUT_EXCERPT_CHARACTERS = 200;

export function buildChatAnswer(request: ChatRequest, directives: Directives): ChatAnswer {
  const last = lastMessage(request);
  const seed = hashString(stripDirectives(messageText(last)));
  const plannedReasoning = reasoningTokensFor(request);
  const tools = last.role === 'user' && request.tool_choice !== 'none' ? toolsToCall(request, messageText(last), directives.toolCalls ?? 1) : [];
  if (tools.length > 0) {
    const toolCalls = tools.map((tool) => generateToolCall(tool, seed));
    return { kind: 'tool_calls', toolCalls, finishReason: 'tool_calls', reasoningTokens: plannedReasoning };
  }
  const wordCount = directives.words ?? MIN_DEFAULT_WORDS + (seed % DEFAULT_WORDS_SPREAD);
  const words = generateWords(seed, wordCount);
  const prose = last.role === 'tool' ? mentionToolOutput(messageText(last), words) : words;
  return fitToTokenLimit(formatContent(request, prose, seed), plannedReasoning, completionTokenLimit(request));
}

/** The answer's text in the shape `response_format` asks for; a schema is filled in, not just any JSON. */
function formatContent(request: ChatRequest, prose: string, seed: number): string {
  const format = request.response_format;
  if (format?.type === 'json_object') return JSON.stringify({ answer: prose });
  if (format?.type === 'json_schema') return JSON.stringify(sampleJsonSchema(format.json_schema?.schema ?? { type: 'object' }, seededRandom(seed)));
  return prose;
}

function mentionToolOutput(output: string, prose: string): string {
  const excerpt = output.replace(/\s+/g, ' ').trim().slice(0, TOOL_OUTPUT_EXCERPT_CHARACTERS);
  return `The tool returned: ${excerpt}. ${prose}`;
}

/** `max_completion_tokens` wins over the deprecated `max_tokens`; either caps reasoning and visible text together. */
function completionTokenLimit(request: ChatRequest): number | undefined {
  return request.max_completion_tokens ?? request.max_tokens ?? undefined;
}

/** Reasoning spends the budget first; what is left caps the visible text, cut mid-word as a real model is. */
function fitToTokenLimit(content: string, plannedReasoning: number, limit: number | undefined): TextAnswer {
  if (limit === undefined) return { kind: 'text', content, finishReason: 'stop', reasoningTokens: plannedReasoning };
  const reasoningTokens = Math.min(plannedReasoning, limit);
  const visibleBudget = limit - reasoningTokens;
  if (countTextTokens(content) <= visibleBudget) return { kind: 'text', content, finishReason: 'stop', reasoningTokens };
  return { kind: 'text', content: truncateToTokens(content, visibleBudget), finishReason: 'length', reasoningTokens };
}
