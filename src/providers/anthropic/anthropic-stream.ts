import type { ChatStreamEvent } from '../chat-adapter';
import type { ChatDelta } from '../chat-types';
import type { SseEvent } from '../sse-parser';
import {
  anthropicErrorBodySchema,
  anthropicStreamEventSchema,
  type AnthropicContentBlockWire,
  type AnthropicStreamEventWire,
  type AnthropicUsageWire,
  KNOWN_STREAM_EVENTS,
} from './anthropic-api';
import { anthropicStreamError, malformedAnthropicAnswer } from './anthropic-errors';
import { convertAnthropicUsage, mergeAnthropicUsage } from './convert-anthropic-usage';
import { toReasoningDetail } from './convert-anthropic-message';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';

/**
 * A Messages stream as canonical chunks. Anthropic streams content blocks
 * (start, deltas, stop) by index; the chunks carry text as `content`,
 * thinking as `reasoning_content`, each whole thinking block with its
 * signature as one `reasoning_details` item once it is complete, and tool
 * calls as OpenAI's indexed fragments, numbered from 0 among the tool calls.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */

/** One SSE event as a wire event; undefined for `ping` and for events newer than this adapter, which carry nothing it reads. */
export function parseAnthropicStreamEvent(sse: SseEvent): AnthropicStreamEventWire | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(sse.data);
  } catch {
    throw malformedAnthropicAnswer(`an event that is not JSON: ${sse.data}`);
  }
  const type = (payload as { type?: unknown } | null)?.type;
  if (sse.event === 'error' || type === 'error') {
    const error = anthropicErrorBodySchema.safeParse(payload);
    throw anthropicStreamError(error.success ? error.data : { type: 'error', error: { type: 'api_error', message: sse.data } });
  }
  if (typeof type !== 'string' || !KNOWN_STREAM_EVENTS.has(type) || type === 'ping') return undefined;
  const parsed = anthropicStreamEventSchema.safeParse(payload);
  if (!parsed.success) throw malformedAnthropicAnswer(parsed.error.message);
  return parsed.data;
}

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'tool'; toolIndex: number; sentArguments: boolean }
  | { kind: 'other' };

export class AnthropicStreamConverter {
  private id = '';
  private model = '';
  private usage: AnthropicUsageWire = {};
  private readonly openBlocks = new Map<number, OpenBlock>();
  private toolCalls = 0;
  /** True once `message_stop` arrived: the answer is whole. */
  complete = false;

  constructor(private readonly created: number) {}

  accept(event: AnthropicStreamEventWire): ChatStreamEvent[] {
    switch (event.type) {
      case 'message_start':
        this.id = event.message.id;
        this.model = event.message.model;
        this.usage = event.message.usage;
        // The prompt's figures (cache reads and writes included) are exact already; output comes at the end.
        return [{ type: 'usage', usage: convertAnthropicUsage(this.usage), partial: true }, this.chunk({ role: 'assistant', content: '' })];
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.applyDelta(event.index, event.delta);
      case 'content_block_stop':
        return this.stopBlock(event.index);
      case 'message_delta':
        this.usage = mergeAnthropicUsage(this.usage, event.usage);
        return [this.chunk({}, mapAnthropicStopReason(event.delta.stop_reason))];
      case 'message_stop':
        this.complete = true;
        return [{ type: 'usage', usage: convertAnthropicUsage(this.usage) }];
      default:
        return [];
    }
  }

  private startBlock(index: number, block: AnthropicContentBlockWire): ChatStreamEvent[] {
    switch (block.type) {
      case 'text':
        this.openBlocks.set(index, { kind: 'text' });
        return block.text ? [this.chunk({ content: block.text })] : [];
      case 'thinking':
        this.openBlocks.set(index, { kind: 'thinking', thinking: block.thinking, signature: block.signature });
        return block.thinking ? [this.chunk({ reasoning_content: block.thinking })] : [];
      case 'redacted_thinking':
        // Arrives whole, with no deltas.
        this.openBlocks.set(index, { kind: 'other' });
        return [this.chunk({ reasoning_details: toReasoningDetail(block) })];
      case 'tool_use': {
        const toolIndex = this.toolCalls++;
        this.openBlocks.set(index, { kind: 'tool', toolIndex, sentArguments: false });
        return [this.chunk({ tool_calls: [{ index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }] })];
      }
      default:
        this.openBlocks.set(index, { kind: 'other' });
        return [];
    }
  }

  private applyDelta(index: number, delta: Extract<AnthropicStreamEventWire, { type: 'content_block_delta' }>['delta']): ChatStreamEvent[] {
    const block = this.openBlocks.get(index);
    if (delta.type === 'text_delta' && block?.kind === 'text') return delta.text ? [this.chunk({ content: delta.text })] : [];
    if (delta.type === 'thinking_delta' && block?.kind === 'thinking') {
      block.thinking += delta.thinking;
      return delta.thinking ? [this.chunk({ reasoning_content: delta.thinking })] : [];
    }
    if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
      block.signature += delta.signature;
      return [];
    }
    if (delta.type === 'input_json_delta' && block?.kind === 'tool' && delta.partial_json) {
      block.sentArguments = true;
      return [this.chunk({ tool_calls: [{ index: block.toolIndex, function: { arguments: delta.partial_json } }] })];
    }
    return [];
  }

  private stopBlock(index: number): ChatStreamEvent[] {
    const block = this.openBlocks.get(index);
    this.openBlocks.delete(index);
    if (block?.kind === 'thinking') {
      return [this.chunk({ reasoning_details: [{ type: 'thinking', thinking: block.thinking, signature: block.signature }] })];
    }
    // A tool without parameters streams no input at all; its arguments are the empty object, as in a whole answer.
    if (block?.kind === 'tool' && !block.sentArguments) return [this.chunk({ tool_calls: [{ index: block.toolIndex, function: { arguments: '{}' } }] })];
    return [];
  }

  private chunk(delta: ChatDelta, finishReason: string | null = null): ChatStreamEvent {
    return {
      type: 'chunk',
      chunk: {
        id: this.id,
        object: 'chat.completion.chunk',
        created: this.created,
        model: this.model,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      },
    };
  }
}
