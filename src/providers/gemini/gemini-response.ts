import { randomBytes } from 'node:crypto';
import type { ChatAssistantMessage, ChatChoice, ChatCompletion } from '../chat-types';
import type { UpstreamError } from '../upstream-error';
import { type GeminiCandidateWire, type GenerateContentResponseWire, generateContentResponseSchema } from './gemini-api';
import { type GeminiAnswerUnit, malformedGeminiAnswer, malformedGeminiWire, promptBlockedError } from './gemini-errors';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';
import { type PartContribution, readGeminiPart } from './read-gemini-part';

/**
 * A whole `generateContent` answer as a canonical chat completion: one
 * choice per candidate, its parts read by readGeminiPart.
 * @see https://ai.google.dev/api/generate-content#generatecontentresponse
 */
export function toChatCompletion(wire: GenerateContentResponseWire, requestedModel: string): ChatCompletion {
  const candidates = wire.candidates ?? [];
  if (candidates.length === 0) throw blockedOrEmpty(wire);
  return {
    id: wire.responseId ?? generatedResponseId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: wire.modelVersion ?? requestedModel,
    choices: candidates.map(toChoice),
  };
}

function toChoice(candidate: GeminiCandidateWire, position: number): ChatChoice {
  const message = assembleMessage((candidate.content?.parts ?? []).map((part, at) => readGeminiPart(part, `candidates.${position}.content.parts.${at}`)));
  return { index: candidate.index ?? position, message, finish_reason: mapGeminiFinishReason(candidate.finishReason, !!message.tool_calls) };
}

/** Content is null beside tool calls, as in OpenAI's answers, and otherwise a string, empty if the model said nothing. */
function assembleMessage(contributions: PartContribution[]): ChatAssistantMessage {
  const reasoning = contributions.flatMap((c) => (c.reasoning !== undefined ? [c.reasoning] : []));
  const text = contributions.flatMap((c) => (c.text !== undefined ? [c.text] : []));
  const toolCalls = contributions.flatMap((c) => (c.toolCall ? [c.toolCall] : []));
  const details = contributions.flatMap((c) => (c.reasoningDetail ? [c.reasoningDetail] : []));
  return {
    role: 'assistant',
    content: text.length || !toolCalls.length ? text.join('') : null,
    ...(reasoning.length ? { reasoning_content: reasoning.join('') } : {}),
    ...(details.length ? { reasoning_details: details } : {}),
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
  };
}

/** A blocked prompt comes with no candidates, only its `promptFeedback`. */
function blockedOrEmpty(wire: GenerateContentResponseWire): UpstreamError {
  const blockReason = wire.promptFeedback?.blockReason;
  return blockReason ? promptBlockedError(blockReason) : malformedGeminiAnswer('candidates: none, and no block reason');
}

/**
 * Reading an answer is two steps, as a stream event may be an error payload
 * instead, checked in between. `unit` says whether it is a whole answer or
 * one stream chunk, for the error.
 */
export function parseGeminiJson(text: string, unit: GeminiAnswerUnit = 'answer'): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformedGeminiAnswer('it is not JSON', unit);
  }
}

export function readGeminiAnswer(json: unknown, unit: GeminiAnswerUnit = 'answer'): GenerateContentResponseWire {
  const parsed = generateContentResponseSchema.safeParse(json);
  if (!parsed.success) throw malformedGeminiWire(parsed.error, unit);
  return parsed.data;
}

/** For an answer without `responseId`, which older Gemini models leave out. */
export function generatedResponseId(): string {
  return `gemini-${randomBytes(12).toString('hex')}`;
}
