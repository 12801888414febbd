import { answerText, thinkingText } from '../answer-text';
import { hashString } from '../deterministic-random';
import { type Directives, stripDirectives } from '../directives';
import { randomAlphanumericId } from '../ids';
import { structuredOutput } from '../structured-output';
import { type FunctionTool, generateToolCall, toolsToCall } from '../openai/chat-tools';
import { countTextTokens, truncateToTokens } from '../token-count';
import { type MessagesRequest, lastMessage, lastUserText, textOf, toolResults } from './messages-request';
import { outputSchemaOf } from './output-format';
import { isThinkingOn } from './thinking-rules';
import { sealRedactedThinking, signThinking } from './thinking-signature';

/**
 * The simulated Claude's answer, as Messages content blocks: a pure function
 * of the request (apart from the random tool-use ids). With thinking on it
 * thinks first, in a signed thinking block. With tools it calls one unless
 * `tool_choice` is `none` or the user turn brings tool results, which it
 * answers in text: JSON that fits the schema of a structured output
 * (`output_config.format`), prose otherwise. A forced tool (`tool_choice`
 * `tool`) is called with input that fits its `input_schema`.
 * `stop_sequences` and `max_tokens` cut the text as the real API does.
 * @see https://docs.anthropic.com/en/api/messages
 */
export type OutputBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';

export interface MessagesAnswer {
  content: OutputBlock[];
  stopReason: StopReason;
  stopSequence: string | null;
  /** Everything generated, thinking included, as Anthropic bills it. */
  outputTokens: number;
  thinkingTokens: number;
}

/**
 * A user message with this string gets its thinking back redacted, as
 * Anthropic documents for testing how a client handles redacted thinking.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#thinking-redaction
 */
export const REDACTED_THINKING_TRIGGER =
  'ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB';

const MIN_DEFAULT_WORDS = 20;
const DEFAULT_WORDS_SPREAD = 41;
const MIN_THINKING_WORDS = 12;
const THINKING_WORDS_SPREAD = 20;
const TOOL_OUTPUT_EXCERPT_CHARACTERS = 200;

export function buildMessagesAnswer(request: MessagesRequest, directives: Directives): MessagesAnswer {
  const userText = lastUserText(request);
  const results = toolResults(lastMessage(request));
  const resultText = results.map((result) => textOf(result.content ?? '')).join('\n');
  const question = results.length ? undefined : stripDirectives(userText);
  const seed = hashString(question ?? resultText);
  const thoughts = isThinkingOn(request) ? thinkingText({ question, seed: hashString('thinking', seed), wordCount: MIN_THINKING_WORDS + (seed % THINKING_WORDS_SPREAD) }) : undefined;
  const thinking = thoughts === undefined ? [] : [thinkingBlock(thoughts, userText)];
  const thinkingTokens = thoughts === undefined ? 0 : countTextTokens(thoughts);
  const callsTools = results.length === 0 && request.tool_choice?.type !== 'none';
  const tools = callsTools ? toolsToCall(asOpenAIToolRequest(request), userText, directives.toolCalls ?? 1) : [];
  if (tools.length) {
    const calls = tools.map((tool) => toolUseBlock(tool, seed, question ?? ''));
    const callTokens = calls.reduce((sum, call) => sum + countTextTokens(call.name) + countTextTokens(JSON.stringify(call.input)), 0);
    return { content: [...thinking, ...calls], stopReason: 'tool_use', stopSequence: null, outputTokens: thinkingTokens + callTokens, thinkingTokens };
  }
  const output = outputSchemaOf(request);
  const schema = output.ok ? output.schema : undefined;
  const words = answerText({ question, model: request.model, seed, wordCount: directives.words ?? MIN_DEFAULT_WORDS + (seed % DEFAULT_WORDS_SPREAD) });
  const prose = results.length ? `The tool returned: ${excerpt(resultText)}. ${words}` : words;
  const outputText = schema ? structuredOutput({ name: undefined, schema, seed, promptText: question ?? '', unusableQuestions: false }).text : prose;
  const text = fitText(outputText, request, Math.max(0, request.max_tokens - thinkingTokens));
  return {
    content: [...thinking, { type: 'text', text: text.text }],
    stopReason: text.stopReason,
    stopSequence: text.stopSequence,
    outputTokens: thinkingTokens + countTextTokens(text.text),
    thinkingTokens,
  };
}

function thinkingBlock(thinking: string, userText: string): OutputBlock {
  if (userText.includes(REDACTED_THINKING_TRIGGER)) return { type: 'redacted_thinking', data: sealRedactedThinking(thinking) };
  return { type: 'thinking', thinking, signature: signThinking(thinking) };
}

/** The Messages tools as the OpenAI simulator's tool picker reads them, so both protocols call the same tools with the same arguments. */
function asOpenAIToolRequest(request: MessagesRequest): Parameters<typeof toolsToCall>[0] {
  const custom = (request.tools ?? []).filter((tool) => typeof tool.name === 'string' && (tool.type === undefined || tool.type === 'custom'));
  const choice = request.tool_choice;
  return {
    model: request.model,
    messages: [],
    tools: custom.map((tool) => ({ type: 'function', function: { name: tool.name, parameters: tool.input_schema ?? {} } })),
    tool_choice: choice?.type === 'tool' && choice.name ? { type: 'function', function: { name: choice.name } } : 'auto',
    parallel_tool_calls: choice?.disable_parallel_tool_use !== true,
  };
}

function toolUseBlock(tool: FunctionTool, seed: number, prompt: string): Extract<OutputBlock, { type: 'tool_use' }> {
  const call = generateToolCall(tool, seed, prompt);
  return { type: 'tool_use', id: randomAlphanumericId('toolu_01', 22), name: call.name, input: JSON.parse(call.arguments) };
}

function excerpt(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, TOOL_OUTPUT_EXCERPT_CHARACTERS);
}

interface FittedText {
  text: string;
  stopReason: StopReason;
  stopSequence: string | null;
}

/** The text up to the first stop sequence, then cut mid-word to the tokens left, as a real model is. */
function fitText(text: string, request: MessagesRequest, tokensLeft: number): FittedText {
  const stop = firstStopSequence(text, request.stop_sequences ?? []);
  const fitted: FittedText = stop ? { text: text.slice(0, stop.at), stopReason: 'stop_sequence', stopSequence: stop.sequence } : { text, stopReason: 'end_turn', stopSequence: null };
  if (countTextTokens(fitted.text) <= tokensLeft) return fitted;
  return { text: truncateToTokens(fitted.text, tokensLeft), stopReason: 'max_tokens', stopSequence: null };
}

function firstStopSequence(text: string, sequences: readonly string[]): { at: number; sequence: string } | undefined {
  let first: { at: number; sequence: string } | undefined;
  for (const sequence of sequences) {
    const at = sequence ? text.indexOf(sequence) : -1;
    if (at >= 0 && (!first || at < first.at)) first = { at, sequence };
  }
  return first;
}
