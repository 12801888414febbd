import type { StreamScript } from '../event-stream';
import { sseDataFrame } from '../openai/chat-stream';

/**
 * `[sim bad_chunk]`: a stream with, after its first content chunk (so that
 * a gateway has already started answering), a chunk no Gemini model sends:
 * a part whose `functionCall.partialArgs` is a number instead of a list.
 * It tests that an adapter fails such a stream loudly, naming the field,
 * instead of crashing or answering something else. The rest of the stream
 * follows as usual.
 */
const UNREADABLE_CHUNK = sseDataFrame({ candidates: [{ content: { parts: [{ functionCall: { partialArgs: 5 } }], role: 'model' }, index: 0 }] });

export function withUnreadableChunk(script: StreamScript): StreamScript {
  const at = Math.min(1, script.content.length);
  return { ...script, content: [...script.content.slice(0, at), UNREADABLE_CHUNK, ...script.content.slice(at)] };
}
