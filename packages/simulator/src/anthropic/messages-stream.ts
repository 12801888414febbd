import type { StreamScript } from '../event-stream';
import { splitIntoPieces } from '../text-pieces';
import type { MessagesAnswer, OutputBlock } from './messages-answer';
import type { MessageIdentity } from './messages-response';
import type { MessagesUsage } from './messages-usage';

/**
 * A streamed answer as named events: `message_start` (usage so far, output
 * a placeholder 1) and a `ping`; per content block a `content_block_start`,
 * its deltas (a thinking block's `signature_delta` last, redacted thinking
 * whole in its start) and a `content_block_stop`; then `message_delta` with
 * the stop reason and the cumulative usage, and `message_stop`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */

/** One event, named after its payload's `type` as Anthropic names them. */
export function namedEventFrame(payload: { type: string; [field: string]: unknown }): string {
  return rawNamedEventFrame(payload.type, JSON.stringify(payload));
}

export function rawNamedEventFrame(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}

export function messagesStreamScript(identity: MessageIdentity, answer: MessagesAnswer, usage: MessagesUsage, chunkSize: number): StreamScript {
  const message = { id: identity.id, type: 'message', role: 'assistant', model: identity.model, content: [], stop_reason: null, stop_sequence: null, usage: usageAtStart(usage) };
  const head = [namedEventFrame({ type: 'message_start', message }), namedEventFrame({ type: 'ping' })];
  const content = answer.content.flatMap((block, index) => blockFrames(block, index, chunkSize));
  const tail = [
    namedEventFrame({ type: 'message_delta', delta: { stop_reason: answer.stopReason, stop_sequence: answer.stopSequence }, usage: usageAtEnd(usage) }),
    namedEventFrame({ type: 'message_stop' }),
  ];
  return { head, content, tail };
}

/** The prompt's figures are known at the start; the output count there is a placeholder. */
function usageAtStart(usage: MessagesUsage): object {
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, cache_creation, service_tier } = usage;
  return { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, cache_creation, output_tokens: 1, service_tier };
}

/** `message_delta` repeats the prompt's totals with the final output, as the recorded streams show. */
function usageAtEnd(usage: MessagesUsage): object {
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens, output_tokens_details } = usage;
  return { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens, output_tokens_details };
}

function blockFrames(block: OutputBlock, index: number, chunkSize: number): string[] {
  const start = (contentBlock: object) => namedEventFrame({ type: 'content_block_start', index, content_block: contentBlock });
  const delta = (payload: object) => namedEventFrame({ type: 'content_block_delta', index, delta: payload });
  const stop = namedEventFrame({ type: 'content_block_stop', index });
  switch (block.type) {
    case 'thinking':
      return [
        start({ type: 'thinking', thinking: '', signature: '' }),
        ...splitIntoPieces(block.thinking, chunkSize).map((piece) => delta({ type: 'thinking_delta', thinking: piece })),
        delta({ type: 'signature_delta', signature: block.signature }),
        stop,
      ];
    case 'redacted_thinking':
      return [start(block), stop];
    case 'text':
      return [start({ type: 'text', text: '' }), ...splitIntoPieces(block.text, chunkSize).map((piece) => delta({ type: 'text_delta', text: piece })), stop];
    case 'tool_use': {
      const json = JSON.stringify(block.input);
      // A tool without input streams one empty fragment, as the recorded stream shows.
      const fragments = json === '{}' ? [''] : splitIntoPieces(json, chunkSize);
      return [
        start({ type: 'tool_use', id: block.id, name: block.name, input: {} }),
        ...fragments.map((piece) => delta({ type: 'input_json_delta', partial_json: piece })),
        stop,
      ];
    }
  }
}
