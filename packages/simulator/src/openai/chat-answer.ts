import { answerText } from '../answer-text';
import { hashString } from '../deterministic-random';
import { type Directives, stripDirectives } from '../directives';
import { type EnumChoice, structuredOutput } from '../structured-output';
import { enumToken } from '../structured-text';
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
  /** Where a structured answer chose among enum values, for its log-probabilities; empty for prose. */
  enumChoices: EnumChoice[];
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
  const prompt = stripDirectives(messageText(last));
  const seed = hashString(prompt);
  const plannedReasoning = reasoningTokensFor(request);
  const tools = last.role === 'user' && request.tool_choice !== 'none' ? toolsToCall(request, messageText(last), directives.toolCalls ?? 1) : [];
  if (tools.length > 0) {
    const toolCalls = tools.map((tool) => generateToolCall(tool, seed, prompt));
    return { kind: 'tool_calls', toolCalls, finishReason: 'tool_calls', reasoningTokens: plannedReasoning };
  }
  const wordCount = directives.words ?? MIN_DEFAULT_WORDS + (seed % DEFAULT_WORDS_SPREAD);
  const toolOutput = last.role === 'tool';
  const words = answerText({ question: toolOutput ? undefined : prompt, model: request.model, seed, wordCount });
  const prose = toolOutput ? mentionToolOutput(messageText(last), words) : words;
  return fitToTokenLimit(formatContent(request, directives, prose, prompt, seed), plannedReasoning, completionTokenLimit(request));
}

interface FormattedContent {
  content: string;
  enumChoices: EnumChoice[];
}

/**
 * The answer's text in the shape `response_format` asks for; a schema is
 * filled in, not just any JSON, and the decision formats get answers that
 * make sense (see structured-output.ts).
 */
function formatContent(request: ChatRequest, directives: Directives, prose: string, prompt: string, seed: number): FormattedContent {
  const format = request.response_format;
  if (format?.type === 'json_object') return { content: JSON.stringify({ answer: prose }), enumChoices: [] };
  if (format?.type !== 'json_schema') return { content: prose, enumChoices: [] };
  const { text, choices } = structuredOutput({
    name: format.json_schema?.name,
    schema: format.json_schema?.schema ?? { type: 'object' },
    seed,
    promptText: prompt,
    unusableQuestions: directives.unusableQuestions === true,
  });
  return { content: text, enumChoices: choices };
}

function mentionToolOutput(output: string, prose: string): string {
  const excerpt = output.replace(/\s+/g, ' ').trim().slice(0, TOOL_OUTPUT_EXCERPT_CHARACTERS);
  return `The tool returned: ${excerpt}. ${prose}`;
}

/** `max_completion_tokens` wins over the deprecated `max_tokens`; either caps reasoning and visible text together. */
function completionTokenLimit(request: ChatRequest): number | undefined {
  return request.max_completion_tokens ?? request.max_tokens ?? undefined;
}

/**
 * Reasoning spends the budget first; what is left caps the visible text, cut
 * mid-word as a real model is, keeping only the enum choices written in full.
 */
function fitToTokenLimit({ content, enumChoices }: FormattedContent, plannedReasoning: number, limit: number | undefined): TextAnswer {
  if (limit === undefined) return { kind: 'text', content, enumChoices, finishReason: 'stop', reasoningTokens: plannedReasoning };
  const reasoningTokens = Math.min(plannedReasoning, limit);
  const visibleBudget = limit - reasoningTokens;
  if (countTextTokens(content) <= visibleBudget) return { kind: 'text', content, enumChoices, finishReason: 'stop', reasoningTokens };
  const cut = truncateToTokens(content, visibleBudget);
  const kept = enumChoices.filter((choice) => choice.offset + enumToken(choice.odds[0]?.value ?? '').length <= cut.length);
  return { kind: 'text', content: cut, enumChoices: kept, finishReason: 'length', reasoningTokens };
}
