import type { Directives } from '../directives';
import type { StreamScript } from '../event-stream';
import { type MessagesAnswer, buildMessagesAnswer } from './messages-answer';
import type { MessagesRequest } from './messages-request';
import { messageIdentity } from './messages-response';
import { messagesStreamScript } from './messages-stream';
import type { MessagesUsage } from './messages-usage';

/**
 * `restart_after=N`: an upstream that gives up the message it was sending
 * and starts over in the same stream. A first message streams its
 * `message_start` and N content events, then a fresh `message_start` opens
 * the real answer, which streams whole and ends the stream as usual. The
 * abandoned message never gets a `message_delta`, so its usage is only the
 * prompt side of its start, never a final figure.
 *
 * The abandoned message is an answer of its own (another message id, other
 * tool-use ids) to the same request, so a client that mixed the two would
 * show it. Its tool inputs stream in at least two pieces, so that N can stop
 * a tool call mid-JSON whatever the chunk size. The abandoned events are part
 * of the head: `cut_after` and `stream_error` count the real answer's
 * content events.
 */
export function withRestart(real: StreamScript, abandoned: string[]): StreamScript {
  return { head: [...abandoned, ...real.head], content: real.content, tail: real.tail };
}

/** The events of the abandoned first message of a generated answer: its start and its first `after` content events. */
export function abandonedMessageFrames(request: MessagesRequest, directives: Directives, usage: MessagesUsage, chunkSize: number, after: number): string[] {
  const answer = buildMessagesAnswer(request, directives);
  const script = messagesStreamScript(messageIdentity(request.model), answer, usage, pieceSizeSplittingToolInputs(answer, chunkSize));
  return abandonedFrames(script, after);
}

/** The first `after` content events of a script, after its head: a recording's abandoned message is its own beginning. */
export function abandonedFrames(script: StreamScript, after: number): string[] {
  return [...script.head, ...script.content.slice(0, after)];
}

/** At most half the shortest tool input, so that every tool input that has any content streams in two pieces or more. */
function pieceSizeSplittingToolInputs(answer: MessagesAnswer, chunkSize: number): number {
  const lengths = answer.content.flatMap((block) => (block.type === 'tool_use' ? [JSON.stringify(block.input).length] : [])).filter((length) => length > 2);
  return lengths.length ? Math.max(1, Math.min(chunkSize, Math.floor(Math.min(...lengths) / 2))) : chunkSize;
}
