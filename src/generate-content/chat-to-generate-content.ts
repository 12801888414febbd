import type { ChatCompletion, ChatCompletionChunk, ChatToolCall, ReasoningDetail } from '../providers/chat-types';
import { usageMetadataOf } from './gemini-usage-metadata';
import { carriedSignature } from './thought-signature-carrier';

type GeminiPart = Record<string, unknown>;

interface Candidate {
  content: { role: 'model'; parts: GeminiPart[] };
  finishReason?: string;
  index: number;
}

/** What every translated answer names: the requested model and the gateway's request id. */
export interface AnswerIdentity {
  modelVersion: string;
  responseId: string;
  /** `thinkingConfig.includeThoughts`: only then are thought summaries parts of the answer, as at Gemini. */
  includeThoughts: boolean;
}

/**
 * A chat completion as a `GenerateContentResponse`: one candidate per
 * choice, its parts in Gemini's order (thoughts, text, function calls), the
 * reasoning state as a `thoughtSignature` (thought-signature-carrier.ts),
 * the finish reason in Gemini's words and the usage in its meaning.
 * @see https://ai.google.dev/api/generate-content#generatecontentresponse
 */
export function toGenerateContentResponse(completion: ChatCompletion, identity: AnswerIdentity): Record<string, unknown> {
  const candidates = completion.choices.map((choice): Candidate => {
    const m = choice.message;
    const parts = answerParts({
      thought: identity.includeThoughts ? (m.reasoning_content ?? '') : '',
      text: m.content ?? '',
      calls: m.tool_calls ?? [],
      details: m.reasoning_details ?? [],
    });
    return { content: { role: 'model', parts }, finishReason: finishReasonOf(choice.finish_reason), index: choice.index };
  });
  return {
    candidates,
    ...(completion.usage ? { usageMetadata: usageMetadataOf(completion.usage) } : {}),
    modelVersion: identity.modelVersion,
    responseId: identity.responseId,
  };
}

function answerParts(answer: { thought: string; text: string; calls: ChatToolCall[]; details: ReasoningDetail[] }): GeminiPart[] {
  const parts: GeminiPart[] = [];
  if (answer.thought) parts.push({ text: answer.thought, thought: true });
  if (answer.text) parts.push({ text: answer.text });
  for (const call of answer.calls) parts.push({ functionCall: { id: call.id, name: call.function.name, args: argsOf(call.function.arguments) } });
  const signature = carriedSignature(answer.details);
  if (signature) {
    const carrier = parts.find((part) => part.functionCall) ?? parts.find((part) => !part.thought);
    if (carrier) carrier.thoughtSignature = signature;
    else parts.push({ text: '', thoughtSignature: signature });
  }
  if (!parts.length) parts.push({ text: '' });
  return parts;
}

/** Gemini's `args` is an object; arguments that are not one (a model's malformed JSON) are kept whole under `arguments`. */
function argsOf(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json || '{}');
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // kept whole below
  }
  return { arguments: json };
}

/** @see https://ai.google.dev/api/generate-content#FinishReason */
export function finishReasonOf(reason: string | null): string | undefined {
  switch (reason) {
    case null:
      return undefined;
    case 'stop':
    case 'tool_calls':
    case 'function_call':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}

interface StreamedChoice {
  calls: Map<number, { id: string; name: string; arguments: string }>;
  details: ReasoningDetail[];
}

/**
 * Chat chunks as `streamGenerateContent` chunks. Text and thoughts go out as
 * they come; a function call goes out whole (Gemini's parts are never
 * partial) with the chunk that finishes its candidate, which also carries
 * the reasoning state. The finishing chunks wait for the usage that follows
 * them (the chat core's last chunk), so that the last chunk carries the
 * finish reason and the usage together, as Gemini's does.
 */
export async function* toGenerateContentStream(chunks: AsyncGenerator<ChatCompletionChunk>, identity: AnswerIdentity): AsyncGenerator<Record<string, unknown>> {
  const choices = new Map<number, StreamedChoice>();
  const finished: Candidate[] = [];
  let usageMetadata: Record<string, number> | undefined;
  const response = (candidates: Candidate[]) => ({ candidates, modelVersion: identity.modelVersion, responseId: identity.responseId });
  try {
    for await (const chunk of chunks) {
      if (chunk.usage) usageMetadata = usageMetadataOf(chunk.usage);
      const candidates: Candidate[] = [];
      for (const choice of chunk.choices) {
        let state = choices.get(choice.index);
        if (!state) choices.set(choice.index, (state = { calls: new Map(), details: [] }));
        const d = choice.delta;
        const parts: GeminiPart[] = [];
        if (identity.includeThoughts && d.reasoning_content) parts.push({ text: d.reasoning_content, thought: true });
        if (d.content) parts.push({ text: d.content });
        for (const call of d.tool_calls ?? []) {
          const held = state.calls.get(call.index) ?? { id: '', name: '', arguments: '' };
          held.id ||= call.id ?? '';
          held.name += call.function?.name ?? '';
          held.arguments += call.function?.arguments ?? '';
          state.calls.set(call.index, held);
        }
        state.details.push(...(d.reasoning_details ?? []));
        if (choice.finish_reason) {
          const calls = [...state.calls.values()].map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));
          const last = answerParts({ thought: '', text: '', calls, details: state.details }).filter((part) => part.functionCall || part.thoughtSignature);
          finished.push({ content: { role: 'model', parts: [...parts, ...last] }, finishReason: finishReasonOf(choice.finish_reason), index: choice.index });
        } else if (parts.length) {
          candidates.push({ content: { role: 'model', parts }, index: choice.index });
        }
      }
      if (candidates.length) yield response(candidates);
    }
  } finally {
    await chunks.return(undefined);
  }
  const last = finished.length ? finished : [{ content: { role: 'model' as const, parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }];
  for (const candidate of last) if (!candidate.content.parts.length) candidate.content.parts.push({ text: '' });
  yield { ...response(last), ...(usageMetadata ? { usageMetadata } : {}) };
}
