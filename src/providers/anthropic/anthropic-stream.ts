import type { ChatStreamEvent } from '../chat-adapter';
import type { ChatDelta, ChatToolCall } from '../chat-types';
import type { SseEvent } from '../sse-parser';
import {
  anthropicErrorBodySchema,
  anthropicStreamEventSchema,
  type AnthropicContentBlockWire,
  type AnthropicStreamEventWire,
  type AnthropicUsageWire,
  KNOWN_STREAM_EVENTS,
} from './anthropic-api';
import { anthropicStreamError, incompleteToolInput, malformedAnthropicAnswer, unparsableToolInput } from './anthropic-errors';
import { convertAnthropicUsage, mergeAnthropicUsage } from './convert-anthropic-usage';
import { toReasoningDetail } from './convert-anthropic-message';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';

/**
 * A Messages stream as canonical chunks. Anthropic streams content blocks
 * (start, deltas, stop) by index; the chunks carry text as `content`,
 * thinking as `reasoning_content`, each whole thinking block with its
 * signature as one `reasoning_details` item once it is complete, and tool
 * calls as OpenAI's indexed tool-call deltas, numbered from 0 among the tool
 * calls. The input of a forced answer tool (a `response_format` served
 * through a tool call) is the answer: its `input_json_delta` pieces go out
 * as content as they come, and text blocks beside it are left out.
 *
 * Tool calls are held back whole. A tool_use block's `input_json_delta`
 * pieces are buffered and must parse with JSON.parse at its
 * `content_block_stop` (otherwise, or when the block never stops, the answer
 * is a 502 naming the block); the message's tool calls then go out when the
 * message ends (`message_delta`), each as one delta carrying id, name and
 * the whole arguments. A client therefore never holds half a tool call or
 * arguments that are not JSON, whatever the upstream does next.
 *
 * Restarts. An upstream may open a new `message_start` mid-stream: it gave
 * up the message it was sending and starts again. Everything that belongs
 * to a message is then replaced (open blocks, tool input buffers, the held
 * tool calls and their numbering, usage), so that tool calls and usage come
 * from the restarted message only:
 * - tool calls of the abandoned message, completed or not, are dropped; none
 *   had left, which is why they wait for the end of their message rather
 *   than their own block's stop: a completed call already sent could not be
 *   taken back and would share index 0 with the restarted message's first
 *   call, merging two argument strings at the client;
 * - text and thinking already streamed cannot be taken back either: the
 *   client keeps them (and any thinking block already completed) and the
 *   restarted message's text simply follows;
 * - the restarted message's prompt figures are reported again as partial
 *   usage and its final usage replaces the abandoned one's, never added to
 *   it: the usage record bills the message the client got to the end.
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
  | { kind: 'tool'; id: string; name: string; input: string }
  | { kind: 'answer'; streamed: boolean }
  | { kind: 'other' };

/** What belongs to one message of the stream; a restart replaces it whole. */
interface MessageState {
  id: string;
  model: string;
  usage: AnthropicUsageWire;
  openBlocks: Map<number, OpenBlock>;
  /** Tool calls whose block is complete and whose input parsed, held until the message ends. */
  toolCalls: ChatToolCall[];
  /** How many of this message's tool calls went out: the index of the next one. */
  toolCallsSent: number;
}

export class AnthropicStreamConverter {
  private message: MessageState = newMessage('', '', {});
  private started = false;
  /** True once `message_stop` arrived: the answer is whole. */
  complete = false;

  /** `answerTool`: the forced tool whose input is the answer (a `response_format` without structured outputs), streamed as content. */
  constructor(
    private readonly created: number,
    private readonly answerTool?: string,
  ) {}

  accept(event: AnthropicStreamEventWire): ChatStreamEvent[] {
    switch (event.type) {
      case 'message_start':
        return this.startMessage(event.message);
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.applyDelta(event.index, event.delta);
      case 'content_block_stop':
        return this.stopBlock(event.index);
      case 'message_delta':
        this.message.usage = mergeAnthropicUsage(this.message.usage, event.usage);
        return [...this.releaseToolCalls(), this.chunk({}, mapAnthropicStopReason(event.delta.stop_reason, this.answerTool !== undefined))];
      case 'message_stop': {
        // A message_delta normally released the tool calls already; this is for an upstream that skipped it.
        const toolCalls = this.releaseToolCalls();
        this.complete = true;
        return [...toolCalls, { type: 'usage', usage: convertAnthropicUsage(this.message.usage) }];
      }
      default:
        return [];
    }
  }

  /** The first message, or a restart: a fresh state either way, and the prompt's figures reported for this message. */
  private startMessage(message: { id: string; model: string; usage: AnthropicUsageWire }): ChatStreamEvent[] {
    const restart = this.started;
    this.started = true;
    this.complete = false;
    this.message = newMessage(message.id, message.model, message.usage);
    // The prompt's figures (cache reads and writes included) are exact already; output comes at the end.
    const usage: ChatStreamEvent = { type: 'usage', usage: convertAnthropicUsage(this.message.usage), partial: true };
    // The client has its role chunk already; the restarted message's content just follows.
    return restart ? [usage] : [usage, this.chunk({ role: 'assistant', content: '' })];
  }

  private startBlock(index: number, block: AnthropicContentBlockWire): ChatStreamEvent[] {
    const { openBlocks } = this.message;
    if (this.answerTool !== undefined && block.type === 'tool_use' && block.name === this.answerTool) {
      openBlocks.set(index, { kind: 'answer', streamed: false });
      return [];
    }
    switch (block.type) {
      case 'text':
        // Text beside a forced answer tool's JSON would make the content unparsable.
        if (this.answerTool !== undefined) break;
        openBlocks.set(index, { kind: 'text' });
        return block.text ? [this.chunk({ content: block.text })] : [];
      case 'thinking':
        openBlocks.set(index, { kind: 'thinking', thinking: block.thinking, signature: block.signature });
        return block.thinking ? [this.chunk({ reasoning_content: block.thinking })] : [];
      case 'redacted_thinking':
        // Arrives whole, with no deltas.
        openBlocks.set(index, { kind: 'other' });
        return [this.chunk({ reasoning_details: toReasoningDetail(block) })];
      case 'tool_use':
        // The input arrives as input_json_delta pieces; the `input: {}` of the start is a placeholder.
        openBlocks.set(index, { kind: 'tool', id: block.id, name: block.name, input: '' });
        return [];
    }
    openBlocks.set(index, { kind: 'other' });
    return [];
  }

  private applyDelta(index: number, delta: Extract<AnthropicStreamEventWire, { type: 'content_block_delta' }>['delta']): ChatStreamEvent[] {
    const block = this.message.openBlocks.get(index);
    if (delta.type === 'text_delta' && block?.kind === 'text') return delta.text ? [this.chunk({ content: delta.text })] : [];
    if (delta.type === 'thinking_delta' && block?.kind === 'thinking') {
      block.thinking += delta.thinking;
      return delta.thinking ? [this.chunk({ reasoning_content: delta.thinking })] : [];
    }
    if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
      block.signature += delta.signature;
      return [];
    }
    if (delta.type === 'input_json_delta' && block?.kind === 'tool') block.input += delta.partial_json;
    if (delta.type === 'input_json_delta' && block?.kind === 'answer' && delta.partial_json) {
      block.streamed = true;
      return [this.chunk({ content: delta.partial_json })];
    }
    return [];
  }

  private stopBlock(index: number): ChatStreamEvent[] {
    const { openBlocks, toolCalls } = this.message;
    const block = openBlocks.get(index);
    openBlocks.delete(index);
    if (block?.kind === 'thinking') {
      return [this.chunk({ reasoning_details: [{ type: 'thinking', thinking: block.thinking, signature: block.signature }] })];
    }
    // An answer tool with no input streams no piece: its answer is the empty object, as in a whole answer.
    if (block?.kind === 'answer' && !block.streamed) return [this.chunk({ content: '{}' })];
    if (block?.kind === 'tool') toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: wholeToolInput(index, block) } });
    return [];
  }

  /** The message's tool calls, each whole in one delta; a tool block still open means its input never completed. */
  private releaseToolCalls(): ChatStreamEvent[] {
    for (const [index, block] of this.message.openBlocks) {
      if (block.kind === 'tool') throw incompleteToolInput(index, block.id, block.name, block.input);
    }
    const message = this.message;
    return message.toolCalls.splice(0).map((call) => this.chunk({ tool_calls: [{ index: message.toolCallsSent++, ...call }] }));
  }

  private chunk(delta: ChatDelta, finishReason: string | null = null): ChatStreamEvent {
    return {
      type: 'chunk',
      chunk: {
        id: this.message.id,
        object: 'chat.completion.chunk',
        created: this.created,
        model: this.message.model,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      },
    };
  }
}

function newMessage(id: string, model: string, usage: AnthropicUsageWire): MessageState {
  return { id, model, usage, openBlocks: new Map(), toolCalls: [], toolCallsSent: 0 };
}

/**
 * The buffered input of a stopped tool block, checked to be JSON. A tool
 * without parameters streams no input at all (or one empty piece); its
 * arguments are the empty object, as in a whole answer.
 */
function wholeToolInput(index: number, block: { id: string; name: string; input: string }): string {
  if (!block.input.trim()) return '{}';
  try {
    JSON.parse(block.input);
  } catch {
    throw unparsableToolInput(index, block.id, block.name, block.input);
  }
  return block.input;
}
