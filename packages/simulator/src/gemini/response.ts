import { randomAlphanumericId } from '../ids';
import type { GeminiAnswer, SignedFunctionCall } from './answer';
import { type PromptTokens, usageMetadata, visibleAnswerTokens } from './usage';

/**
 * The whole `GenerateContentResponse`, field for field and in the order of
 * the recorded responses (test/fixtures/recorded/gemini/*.json): candidates
 * with their parts (a thought summary first, then the text or the function
 * calls), usage, model version and response id.
 * @see https://ai.google.dev/api/generate-content#generatecontentresponse
 */
export interface ResponseIdentity {
  modelVersion: string;
  responseId: string;
}

const RESPONSE_ID_LENGTH = 23;

export function responseIdentity(model: string): ResponseIdentity {
  return { modelVersion: model, responseId: randomAlphanumericId('', RESPONSE_ID_LENGTH) };
}

export function generateContentBody(identity: ResponseIdentity, answers: GeminiAnswer[], prompt: PromptTokens): object {
  const candidates = answers.map((answer, index) => ({
    content: modelContent(candidateParts(answer)),
    finishReason: answer.finishReason,
    index,
    ...(answer.functionCalls.length ? { finishMessage: 'Model generated function call(s).' } : {}),
  }));
  const shown = answers.reduce((sum, answer) => sum + visibleAnswerTokens(answer), 0);
  return { candidates, usageMetadata: usageMetadata(prompt, shown, totalThoughtsTokens(answers)), ...identity };
}

export function totalThoughtsTokens(answers: GeminiAnswer[]): number {
  return answers.reduce((sum, answer) => sum + answer.thoughtsTokens, 0);
}

/** A candidate that said nothing (thinking used up the limit) has a content with no parts, as Gemini sends it. */
export function modelContent(parts: object[]): object {
  return parts.length ? { parts, role: 'model' } : { role: 'model' };
}

function candidateParts(answer: GeminiAnswer): object[] {
  const parts: object[] = [];
  if (answer.thoughtSummary) parts.push(thoughtPart(answer.thoughtSummary));
  if (answer.text) parts.push({ text: answer.text });
  parts.push(...answer.functionCalls.map(functionCallPart));
  return parts;
}

export function thoughtPart(text: string): object {
  return { text, thought: true };
}

export function functionCallPart({ name, args, thoughtSignature }: SignedFunctionCall): object {
  return thoughtSignature === undefined ? { functionCall: { name, args } } : { functionCall: { name, args }, thoughtSignature };
}
