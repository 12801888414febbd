import type { ChatToolCall, ChatToolCallDelta } from '../chat-types';
import type { FunctionCallPiece, FunctionCallStart } from './classify-function-call';
import { malformedGeminiAnswer } from './gemini-errors';
import { PartialArguments } from './partial-arguments';
import { newToolCallId } from './read-gemini-part';

interface OpenCall {
  index: number;
  id: string;
  name: string;
  args: PartialArguments;
}

/**
 * The tool calls of one candidate across a stream, numbered in order. A
 * whole call is one delta. A call whose arguments come in pieces is one
 * tool call too: its first delta, at its start, carries the index, id, name
 * and empty arguments; the pieces are held until the call ends, and then
 * one delta carries the complete arguments as JSON text. Holding them costs
 * nothing in what the client can do (it cannot use half an argument list)
 * and guarantees that the argument deltas join into valid JSON.
 *
 * Only one call is assembled at a time: a piece with no call open, a new
 * call while one is open, or a finish with one still open are shapes the
 * adapter cannot read, and fail the stream rather than guess.
 */
export class StreamedToolCalls {
  private made = 0;
  private open: OpenCall | undefined;

  /** How many calls have started, for `finish_reason: tool_calls`. */
  get count(): number {
    return this.made;
  }

  whole(call: ChatToolCall, field: string): ChatToolCallDelta {
    this.refuseWhileOpen(field);
    return { index: this.made++, ...call };
  }

  /**
   * The deltas of a start or a piece (none for a piece in the middle), and
   * the id of the call it belongs to, for a thought signature riding on it.
   * `field` is the path of the part's `functionCall`.
   */
  streamed(shape: FunctionCallStart | FunctionCallPiece, field: string): { callId: string; deltas: ChatToolCallDelta[] } {
    const deltas: ChatToolCallDelta[] = [];
    if (shape.kind === 'start') {
      this.refuseWhileOpen(field);
      this.open = { index: this.made++, id: shape.id ?? newToolCallId(), name: shape.name, args: new PartialArguments() };
      deltas.push({ index: this.open.index, id: this.open.id, type: 'function', function: { name: shape.name, arguments: '' } });
    }
    const call = this.open;
    if (!call) throw unreadable(field, 'a piece of a function call with no call open');
    for (const [at, piece] of shape.partialArgs.entries()) call.args.apply(piece, `${field}.partialArgs.${at}`);
    if (shape.ends) {
      deltas.push({ index: call.index, function: { arguments: call.args.toJson() } });
      this.open = undefined;
    }
    return { callId: call.id, deltas };
  }

  /** `field` is the candidate's `finishReason`: a call still open there never ended. */
  finish(field: string): void {
    if (this.open) throw unreadable(field, 'the candidate finished with a function call still open');
  }

  private refuseWhileOpen(field: string): void {
    if (this.open) throw unreadable(field, 'a new function call before the open one ended');
  }
}

function unreadable(field: string, problem: string) {
  return malformedGeminiAnswer(`${field}: ${problem}`, 'stream chunk');
}
