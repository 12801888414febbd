import type { ChatCompletionChunk } from '../providers/chat-types';
import { chatChunkEvent } from './chat-chunk-event';
import type { GraphqlContext } from './context';
import { isInternalError, streamFailure } from './errors';
import type { EndableStream } from './open-streams';
import type { ChatCompletionEvent } from './types/chat-completion-event';

/**
 * The subscription's events from the chat service's chunks, one per chunk.
 * Not an async generator: the service's stream settles its usage record in a
 * `finally` that runs only once the stream has started, and a generator's
 * `return()` before its first `next()` never starts anything. So the first
 * chunk is asked for at once, and `return()` always reaches the chunks.
 */
export function chatCompletionEvents(chunks: AsyncGenerator<ChatCompletionChunk>, ctx: GraphqlContext): EndableStream<ChatCompletionEvent> {
  let firstStep: Promise<IteratorResult<ChatCompletionChunk>> | undefined = chunks.next();
  return {
    async next() {
      for (;;) {
        let step: IteratorResult<ChatCompletionChunk>;
        try {
          step = await (firstStep ?? chunks.next());
        } catch (err) {
          // The chat service has settled the usage record; the client gets the error with its request id.
          if (isInternalError(err)) ctx.logger.error('chat stream failed', { err });
          throw streamFailure(err, ctx.requestId);
        } finally {
          firstStep = undefined;
        }
        if (step.done) return { done: true, value: undefined };
        const event = chatChunkEvent(step.value, ctx.requestId);
        if (event) return { done: false, value: event };
      }
    },
    async return() {
      firstStep = undefined;
      await chunks.return(undefined);
      return { done: true, value: undefined };
    },
  };
}
