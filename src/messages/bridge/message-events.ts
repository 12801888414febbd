import type { ChatCompletionChunk, ChatUsage, ReasoningDetail } from '../../providers/chat-types';
import { messageUsageOf } from '../message-usage';
import { encodeReasoningState } from '../../chat/carried-reasoning-state';
import { stopReasonOf } from './stop-reason';

/** One Anthropic stream event; its `type` names it on the wire. */
export type MessageEvent = { type: string; [field: string]: unknown };

type OpenBlock = { kind: 'text' | 'thinking' | 'tool'; index: number };

/**
 * The chat core's chunks as Anthropic's stream: `message_start` and a
 * `ping`; each content block opened, filled and closed in turn
 * (`thinking_delta` then its `signature_delta`, `text_delta`,
 * `input_json_delta`); at the end `message_delta` with the stop reason and
 * the usage (the chat core's last chunk, asked for with `include_usage`),
 * and `message_stop`. A failure of the chat stream is thrown on, for the
 * writer's `error` event.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function* toMessageEvents(chunks: AsyncGenerator<ChatCompletionChunk>, id: string, model: string): AsyncGenerator<MessageEvent> {
  const blocks = new MessageBlocks();
  yield {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: messageUsageOf(null) },
  };
  yield { type: 'ping' };
  let finishReason: string | null = null;
  let usage: ChatUsage | null | undefined;
  try {
    for await (const chunk of chunks) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      const d = choice.delta;
      if (d.reasoning_content) yield* blocks.thinking(d.reasoning_content);
      for (const detail of d.reasoning_details ?? []) yield* blocks.reasoningDetail(detail);
      if (d.content) yield* blocks.text(d.content);
      for (const call of d.tool_calls ?? []) yield* blocks.toolCall(call.index, call.id, call.function?.name, call.function?.arguments);
      if (choice.finish_reason) {
        finishReason = choice.finish_reason;
        yield* blocks.close();
      }
    }
  } finally {
    await chunks.return(undefined);
  }
  yield* blocks.close();
  yield { type: 'message_delta', delta: { stop_reason: stopReasonOf(finishReason), stop_sequence: null }, usage: messageUsageOf(usage) };
  yield { type: 'message_stop' };
}

/** The content blocks of the message being streamed: which one is open, and the index of the next. */
class MessageBlocks {
  private open: OpenBlock | undefined;
  private next = 0;
  private readonly toolBlocks = new Map<number, number>();

  *thinking(text: string): Generator<MessageEvent> {
    if (this.open?.kind !== 'thinking') yield* this.start('thinking', { type: 'thinking', thinking: '', signature: '' });
    yield this.delta({ type: 'thinking_delta', thinking: text });
  }

  /** A whole reasoning-state item: the signature of the thinking just streamed (or a thinking block of its own), a redacted block, a carried thought signature. */
  *reasoningDetail(detail: ReasoningDetail): Generator<MessageEvent> {
    if (detail.type === 'redacted_thinking') {
      yield* this.start('thinking', { type: 'redacted_thinking', data: detail.data });
      yield* this.close();
      return;
    }
    const streamed = this.open?.kind === 'thinking';
    if (!streamed) yield* this.start('thinking', { type: 'thinking', thinking: '', signature: '' });
    if (detail.type === 'thinking' && !streamed && detail.thinking) yield this.delta({ type: 'thinking_delta', thinking: detail.thinking });
    yield this.delta({ type: 'signature_delta', signature: detail.type === 'thinking' ? detail.signature : encodeReasoningState([detail]) });
    yield* this.close();
  }

  *text(text: string): Generator<MessageEvent> {
    if (this.open?.kind !== 'text') yield* this.start('text', { type: 'text', text: '' });
    yield this.delta({ type: 'text_delta', text });
  }

  *toolCall(toolIndex: number, id: string | undefined, name: string | undefined, args: string | undefined): Generator<MessageEvent> {
    if (!this.toolBlocks.has(toolIndex)) {
      yield* this.start('tool', { type: 'tool_use', id: id ?? `toolu_${toolIndex}`, name: name ?? '', input: {} });
      this.toolBlocks.set(toolIndex, this.open!.index);
    }
    if (args) yield { type: 'content_block_delta', index: this.toolBlocks.get(toolIndex)!, delta: { type: 'input_json_delta', partial_json: args } };
  }

  *close(): Generator<MessageEvent> {
    if (!this.open) return;
    yield { type: 'content_block_stop', index: this.open.index };
    this.open = undefined;
  }

  private *start(kind: OpenBlock['kind'], block: Record<string, unknown>): Generator<MessageEvent> {
    yield* this.close();
    this.open = { kind, index: this.next++ };
    yield { type: 'content_block_start', index: this.open.index, content_block: block };
  }

  private delta(delta: Record<string, unknown>): MessageEvent {
    return { type: 'content_block_delta', index: this.open!.index, delta };
  }
}
