import type { ChatCompletionChunk, ChatDelta } from '../chat-types';
import type { GeminiCandidateWire, GeminiUsageMetadataWire, GenerateContentResponseWire } from './gemini-api';
import { promptBlockedError } from './gemini-errors';
import { generatedResponseId } from './gemini-response';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';
import { type PartContribution, readGeminiPart } from './read-gemini-part';

/**
 * Turns the chunks of a `streamGenerateContent?alt=sse` answer into
 * canonical chunks, in order: an opening `{role, content: ""}` delta per
 * candidate, then one delta per part (reasoning, content, a whole tool
 * call, a reasoning detail riding with the part it came on), then an empty
 * delta with the finish reason. Gemini sends running usage totals, so only
 * the last one counts; it is kept for the end of the stream.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export class GeminiStreamState {
  private readonly created = Math.floor(Date.now() / 1000);
  private readonly fallbackId = generatedResponseId();
  private readonly candidates = new Map<number, { toolCalls: number; finished: boolean }>();
  private lastUsage: GeminiUsageMetadataWire | undefined;

  constructor(private readonly requestedModel: string) {}

  toChunks(wire: GenerateContentResponseWire): ChatCompletionChunk[] {
    const candidates = wire.candidates ?? [];
    const blockReason = wire.promptFeedback?.blockReason;
    if (blockReason && candidates.length === 0) throw promptBlockedError(blockReason);
    if (wire.usageMetadata) this.lastUsage = wire.usageMetadata;
    return candidates.flatMap((candidate, position) => this.candidateChunks(wire, candidate, candidate.index ?? position));
  }

  /** True once every candidate that appeared has its finish reason: anything less is a cut-off stream. */
  get complete(): boolean {
    return this.candidates.size > 0 && [...this.candidates.values()].every((candidate) => candidate.finished);
  }

  get usage(): GeminiUsageMetadataWire | undefined {
    return this.lastUsage;
  }

  private candidateChunks(wire: GenerateContentResponseWire, candidate: GeminiCandidateWire, index: number): ChatCompletionChunk[] {
    const chunks: ChatCompletionChunk[] = [];
    let state = this.candidates.get(index);
    if (!state) {
      state = { toolCalls: 0, finished: false };
      this.candidates.set(index, state);
      chunks.push(this.chunk(wire, index, { role: 'assistant', content: '' }));
    }
    for (const part of candidate.content?.parts ?? []) {
      const delta = toDelta(readGeminiPart(part), state);
      if (delta) chunks.push(this.chunk(wire, index, delta));
    }
    if (candidate.finishReason) {
      state.finished = true;
      chunks.push(this.chunk(wire, index, {}, mapGeminiFinishReason(candidate.finishReason, state.toolCalls > 0)));
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

/** Gemini sends each call whole, so one delta carries its id, name and all its arguments. */
function toDelta(contribution: PartContribution, state: { toolCalls: number }): ChatDelta | undefined {
  const delta: ChatDelta = {};
  if (contribution.reasoning !== undefined) delta.reasoning_content = contribution.reasoning;
  if (contribution.text !== undefined) delta.content = contribution.text;
  if (contribution.toolCall) delta.tool_calls = [{ index: state.toolCalls++, ...contribution.toolCall }];
  if (contribution.reasoningDetail) delta.reasoning_details = [contribution.reasoningDetail];
  return Object.keys(delta).length ? delta : undefined;
}
