import { randomBytes } from 'node:crypto';
import type { ChatToolCall, ReasoningDetail } from '../chat-types';
import { classifyFunctionCall } from './classify-function-call';
import type { GeminiResponsePartWire } from './gemini-api';
import { type GeminiAnswerUnit, malformedGeminiAnswer } from './gemini-errors';

/**
 * What one part of a Gemini answer adds to the OpenAI-shaped message, read
 * the same way for whole answers and for stream chunks: thought summaries
 * are reasoning, other text is content, a whole function call is a tool
 * call, and a thought signature is a reasoning detail the client must send
 * back (tied to its call, when it came on one). Empty text adds nothing.
 * A call whose arguments come in pieces is the stream's to assemble
 * (streamed-tool-calls.ts); a whole answer never has one, so there it is
 * an answer the adapter cannot read. `field` is the part's path in the
 * answer, for that error.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export interface PartContribution {
  reasoning?: string;
  text?: string;
  toolCall?: ChatToolCall;
  reasoningDetail?: ReasoningDetail;
}

export function readGeminiPart(part: GeminiResponsePartWire, field: string, unit: GeminiAnswerUnit = 'answer'): PartContribution {
  const contribution: PartContribution = {};
  if (part.functionCall) {
    const call = classifyFunctionCall(part.functionCall);
    if (call.kind !== 'whole') throw malformedGeminiAnswer(`${field}.functionCall: a function call in pieces, which only a stream can assemble`, unit);
    contribution.toolCall = { id: call.id ?? newToolCallId(), type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } };
  } else if (part.text) {
    if (part.thought) contribution.reasoning = part.text;
    else contribution.text = part.text;
  }
  if (part.thoughtSignature) contribution.reasoningDetail = thoughtSignatureDetail(part.thoughtSignature, contribution.toolCall?.id);
  return contribution;
}

export function thoughtSignatureDetail(signature: string, toolCallId: string | undefined): ReasoningDetail {
  return { type: 'thought_signature', signature, ...(toolCallId ? { tool_call_id: toolCallId } : {}) };
}

/** Gemini 2.5 gives calls no id; OpenAI clients need one to answer a call. */
export function newToolCallId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}
