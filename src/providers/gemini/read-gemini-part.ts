import { randomBytes } from 'node:crypto';
import type { ChatToolCall, ReasoningDetail } from '../chat-types';
import type { GeminiResponsePartWire } from './gemini-api';

/**
 * What one part of a Gemini answer adds to the OpenAI-shaped message, read
 * the same way for whole answers and for stream chunks: thought summaries
 * are reasoning, other text is content, a function call is a tool call, and
 * a thought signature is a reasoning detail the client must send back (tied
 * to its call, when it came on one). Empty text adds nothing.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export interface PartContribution {
  reasoning?: string;
  text?: string;
  toolCall?: ChatToolCall;
  reasoningDetail?: ReasoningDetail;
}

export function readGeminiPart(part: GeminiResponsePartWire): PartContribution {
  const contribution: PartContribution = {};
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    contribution.toolCall = { id: id ?? newToolCallId(), type: 'function', function: { name, arguments: JSON.stringify(args ?? {}) } };
  } else if (part.text) {
    if (part.thought) contribution.reasoning = part.text;
    else contribution.text = part.text;
  }
  if (part.thoughtSignature) {
    const callId = contribution.toolCall?.id;
    contribution.reasoningDetail = { type: 'thought_signature', signature: part.thoughtSignature, ...(callId ? { tool_call_id: callId } : {}) };
  }
  return contribution;
}

/** Gemini 2.5 gives calls no id; OpenAI clients need one to answer a call. */
function newToolCallId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}
