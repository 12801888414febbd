import { answerText, thinkingText } from '../answer-text';
import { hashString, seededRandom } from '../deterministic-random';
import { type Directives, stripDirectives } from '../directives';
import { sampleJsonSchema } from '../json-schema-sample';
import { countTextTokens, truncateToTokens } from '../token-count';
import { type GeneratedFunctionCall, functionsToCall, generateFunctionCall } from './function-calls';
import { type GeminiContent, type GenerateContentRequest, type GenerationConfig, contentText, lastContent, lastUserText } from './generate-request';
import { openApiToJsonSchema } from './openapi-schema';
import { isThinking, plannedThoughtsTokens } from './thinking-models';
import { streamableArguments } from './streamed-arguments';
import { signFunctionCall } from './thought-signature';

/**
 * The simulated model's answer for each candidate: a pure function of the
 * request, so a test can predict it by asking twice. Thinking spends
 * `maxOutputTokens` first (Gemini counts thoughts in the output limit),
 * what is left caps the visible text. Thought summaries appear only when
 * `includeThoughts` asks for them; the thinking is billed either way.
 * @see https://ai.google.dev/gemini-api/docs/thinking#summaries
 */
export interface GeminiAnswer {
  thoughtSummary: string | undefined;
  thoughtsTokens: number;
  /** Empty for function calls, or when thinking used up the output limit. */
  text: string;
  functionCalls: SignedFunctionCall[];
  finishReason: 'STOP' | 'MAX_TOKENS';
}

export interface SignedFunctionCall extends GeneratedFunctionCall {
  thoughtSignature?: string;
}

const MIN_DEFAULT_WORDS = 20;
const DEFAULT_WORDS_SPREAD = 41;
const SUMMARY_WORDS = 24;
const FUNCTION_OUTPUT_EXCERPT_CHARACTERS = 200;

export function buildGeminiAnswers(model: string, request: GenerateContentRequest, directives: Directives): GeminiAnswer[] {
  const count = request.generationConfig?.candidateCount ?? 1;
  return Array.from({ length: count }, (_, index) => buildGeminiAnswer(model, request, directives, index));
}

function buildGeminiAnswer(model: string, request: GenerateContentRequest, directives: Directives, candidateIndex: number): GeminiAnswer {
  const last = lastContent(request);
  const question = stripDirectives(promptText(last));
  const seed = (hashString(question) + candidateIndex) >>> 0;
  const answersResults = last.parts.some((part) => part.functionResponse);
  const config = request.generationConfig;
  const thinking = isThinking(model, config?.thinkingConfig);
  const limit = config?.maxOutputTokens;
  const planned = plannedThoughtsTokens(model, config?.thinkingConfig, seed);
  const thoughtsTokens = limit === undefined ? planned : Math.min(planned, limit);
  const thoughtSummary = thinking && config?.thinkingConfig?.includeThoughts ? summaryText(answersResults ? undefined : question, seed) : undefined;
  const functions = functionsToCall(request, lastUserText(request), directives.toolCalls ?? 1);
  if (functions.length > 0) {
    const generated = functions.map((declaration) => generateFunctionCall(declaration, seed, stripDirectives(lastUserText(request))));
    // Arguments streamed in pieces can only hold what a piece can carry; the call (and its signature) is what is streamed.
    const calls = directives.streamArgs ? generated.map((call) => ({ ...call, args: streamableArguments(call.args) })) : generated;
    return { thoughtSummary, thoughtsTokens, text: '', functionCalls: thinking ? signFirst(calls) : calls, finishReason: 'STOP' };
  }
  const wordCount = directives.words ?? MIN_DEFAULT_WORDS + (seed % DEFAULT_WORDS_SPREAD);
  const words = answerText({ question: answersResults ? undefined : question, model, seed, wordCount });
  const prose = answersResults ? mentionFunctionOutput(last, words) : words;
  const visible = fitToLimit(formatText(config, prose, seed, question), limit === undefined ? undefined : limit - thoughtsTokens);
  return { thoughtSummary, thoughtsTokens, functionCalls: [], ...visible };
}

/** The text the answer is seeded from: what the user wrote, or the function results. */
function promptText(content: GeminiContent): string {
  const results = content.parts.flatMap((part) => (part.functionResponse ? [JSON.stringify(part.functionResponse)] : []));
  return [contentText(content), ...results].join('\n');
}

/** Only the first call of a turn carries the signature, as with Gemini's parallel calls. */
function signFirst(calls: GeneratedFunctionCall[]): SignedFunctionCall[] {
  return calls.map((call, index) => (index === 0 ? { ...call, thoughtSignature: signFunctionCall(call.name, call.args) } : call));
}

/** A summary in the shape Gemini writes them: a bold heading, then a paragraph. */
function summaryText(question: string | undefined, seed: number): string {
  const heading = question === undefined ? 'Reading the function results' : 'Considering the question';
  return `**${heading}**\n\n${thinkingText({ question, seed: seed ^ 0x9e3779b9, wordCount: SUMMARY_WORDS })}`;
}

function mentionFunctionOutput(content: GeminiContent, prose: string): string {
  const output = content.parts.flatMap((part) => (part.functionResponse ? [JSON.stringify(part.functionResponse.response ?? {})] : [])).join(' ');
  return `The tool returned: ${output.slice(0, FUNCTION_OUTPUT_EXCERPT_CHARACTERS)}. ${prose}`;
}

/** JSON mode fills in the given schema (JSON Schema or Gemini's OpenAPI subset), not just any JSON. */
function formatText(config: GenerationConfig | undefined, prose: string, seed: number, prompt: string): string {
  if (config?.responseMimeType !== 'application/json') return prose;
  const schema = config.responseJsonSchema ?? (config.responseSchema === undefined ? undefined : openApiToJsonSchema(config.responseSchema));
  return JSON.stringify(schema === undefined ? { answer: prose } : sampleJsonSchema(schema, seededRandom(seed), prompt));
}

/** Cut mid-word at the limit, as a real model is. */
function fitToLimit(text: string, visibleBudget: number | undefined): Pick<GeminiAnswer, 'text' | 'finishReason'> {
  if (visibleBudget === undefined || countTextTokens(text) <= visibleBudget) return { text, finishReason: 'STOP' };
  return { text: truncateToTokens(text, visibleBudget), finishReason: 'MAX_TOKENS' };
}
