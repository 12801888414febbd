import type { ChatCompletionChunk, ChatDelta, ReasoningDetail } from '../chat-types';
import { classifyFunctionCall } from './classify-function-call';
import type { GeminiCandidateWire, GeminiResponsePartWire, GeminiUsageMetadataWire, GenerateContentResponseWire } from './gemini-api';
import { promptBlockedError } from './gemini-errors';
import { generatedResponseId } from './gemini-response';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';
import { readGeminiPart, thoughtSignatureDetail } from './read-gemini-part';
import { StreamedToolCalls } from './streamed-tool-calls';

interface CandidateState {
  toolCalls: StreamedToolCalls;
  finished: boolean;
}

/**
 * Turns the chunks of a `streamGenerateContent?alt=sse` answer into
 * canonical chunks, in order: an opening `{role, content: ""}` delta per
 * candidate, then the deltas of each part (reasoning, content, a tool call,
 * a reasoning detail riding with the part it came on), then an empty delta
 * with the finish reason. A tool call comes whole, or with its arguments in
 * pieces that StreamedToolCalls assembles. Gemini sends running usage
 * totals, so only the last one counts; it is kept for the end of the
 * stream. A chunk the adapter cannot read fails with the field that is
 * wrong (`candidates.0.content.parts.1.functionCall...`), as it sits in the
 * chunk.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export class GeminiStreamState {
  private readonly created = Math.floor(Date.now() / 1000);
  private readonly fallbackId = generatedResponseId();
  private readonly candidates = new Map<number, CandidateState>();
  private lastUsage: GeminiUsageMetadataWire | undefined;

  constructor(private readonly requestedModel: string) {}

  toChunks(wire: GenerateContentResponseWire): ChatCompletionChunk[] {
    const candidates = wire.candidates ?? [];
    const blockReason = wire.promptFeedback?.blockReason;
    if (blockReason && candidates.length === 0) throw promptBlockedError(blockReason);
    if (wire.usageMetadata) this.lastUsage = wire.usageMetadata;
    return candidates.flatMap((candidate, position) => this.candidateChunks(wire, candidate, position));
  }

  /** True once every candidate that appeared has its finish reason: anything less is a cut-off stream. */
  get complete(): boolean {
    return this.candidates.size > 0 && [...this.candidates.values()].every((candidate) => candidate.finished);
  }

  get usage(): GeminiUsageMetadataWire | undefined {
    return this.lastUsage;
  }

  /** `position` is where the candidate sits in this chunk, which names its fields; its `index` says which choice it is. */
  private candidateChunks(wire: GenerateContentResponseWire, candidate: GeminiCandidateWire, position: number): ChatCompletionChunk[] {
    const index = candidate.index ?? position;
    const chunks: ChatCompletionChunk[] = [];
    let state = this.candidates.get(index);
    if (!state) {
      state = { toolCalls: new StreamedToolCalls(), finished: false };
      this.candidates.set(index, state);
      chunks.push(this.chunk(wire, index, { role: 'assistant', content: '' }));
    }
    for (const [at, part] of (candidate.content?.parts ?? []).entries()) {
      for (const delta of partDeltas(part, state.toolCalls, `candidates.${position}.content.parts.${at}`)) chunks.push(this.chunk(wire, index, delta));
    }
    if (candidate.finishReason) {
      state.toolCalls.finish(`candidates.${position}.finishReason`);
      state.finished = true;
      chunks.push(this.chunk(wire, index, {}, mapGeminiFinishReason(candidate.finishReason, state.toolCalls.count > 0)));
    }
    return chunks;
  }

  private chunk(wire: GenerateContentResponseWire, index: number, delta: ChatDelta, finishReason: string | null = null): ChatCompletionChunk {
    return {
      id: wire.responseId ?? this.fallbackId,
      object: 'chat.completion.chunk',
      created: this.created,
      model: wire.modelVersion ?? this.requestedModel,
      choices: [{ index, delta, finish_reason: finishReason }],
    };
  }
}

/**
 * The deltas one part adds: none, or one (a whole call carries its id,
 * name and all its arguments), or, for a call in pieces, its start and, once
 * it ends, its arguments. A thought signature rides on the first delta of
 * its part, tied to the call it came with.
 */
function partDeltas(part: GeminiResponsePartWire, toolCalls: StreamedToolCalls, field: string): ChatDelta[] {
  const call = part.functionCall ? classifyFunctionCall(part.functionCall) : undefined;
  if (call && call.kind !== 'whole') {
    const { callId, deltas } = toolCalls.streamed(call, `${field}.functionCall`);
    const detail = part.thoughtSignature ? thoughtSignatureDetail(part.thoughtSignature, callId) : undefined;
    return withDetail(deltas.map((toolCall) => ({ tool_calls: [toolCall] })), detail);
  }
  const contribution = readGeminiPart(part, field, 'stream chunk');
  const delta: ChatDelta = {};
  if (contribution.reasoning !== undefined) delta.reasoning_content = contribution.reasoning;
  if (contribution.text !== undefined) delta.content = contribution.text;
  if (contribution.toolCall) delta.tool_calls = [toolCalls.whole(contribution.toolCall, `${field}.functionCall`)];
  return withDetail(Object.keys(delta).length ? [delta] : [], contribution.reasoningDetail);
}

function withDetail(deltas: ChatDelta[], detail: ReasoningDetail | undefined): ChatDelta[] {
  if (!detail) return deltas;
  const [first, ...rest] = deltas;
  return [{ ...first, reasoning_details: [detail] }, ...rest];
}
