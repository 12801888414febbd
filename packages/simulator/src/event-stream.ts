import type { OutgoingHttpHeaders } from 'node:http';
import { pause } from './pause';
import type { Exchange } from './routing';

/**
 * A stream answer as whole SSE frames (`data: ...\n\n`, with `event:` lines
 * where the protocol names its events), in three parts, so that the knobs
 * that break a stream can be applied the same way to every protocol:
 * `head` opens the answer, `content` carries it piece by piece, `tail`
 * finishes it (finish reason, usage, terminator).
 */
export interface StreamScript {
  head: string[];
  content: string[];
  tail: string[];
}

export interface StreamInterruptions {
  /** Drop the connection after this many content frames: no tail, no terminator. */
  cutAfter?: number | undefined;
  /** Send `errorFrame` after this many content frames, then end the response without the tail. */
  errorAfter?: number | undefined;
  errorFrame: string;
  /** Send a frame whose data is not JSON after this many content frames, then end without the tail. */
  garbageAfter?: number | undefined;
}

/** An event whose data breaks off mid-JSON, as a broken upstream or proxy sends it. */
const GARBAGE_FRAME = 'data: {"id":"broken","choices":[{"delta":{"content":"cut of\n\n';

export interface PlannedStream {
  frames: string[];
  /** `end` closes the response properly; `cut` drops the connection as a failing upstream does. */
  ending: 'end' | 'cut';
}

export function planStream(script: StreamScript, interruptions: StreamInterruptions): PlannedStream {
  const { head, content, tail } = script;
  if (interruptions.cutAfter !== undefined) return { frames: [...head, ...content.slice(0, interruptions.cutAfter)], ending: 'cut' };
  if (interruptions.garbageAfter !== undefined) return { frames: [...head, ...content.slice(0, interruptions.garbageAfter), GARBAGE_FRAME], ending: 'end' };
  if (interruptions.errorAfter !== undefined) {
    return { frames: [...head, ...content.slice(0, interruptions.errorAfter), interruptions.errorFrame], ending: 'end' };
  }
  return { frames: [...head, ...content, ...tail], ending: 'end' };
}

export interface EventStreamWriting {
  headers: OutgoingHttpHeaders;
  /** Milliseconds between frames; 0 sends the whole stream in one write, the fastest path for benchmarks. */
  paceMs: number;
}

export async function writeEventStream(exchange: Exchange, stream: PlannedStream, writing: EventStreamWriting): Promise<void> {
  const { res, signal } = exchange;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', ...writing.headers });
  const batches = writing.paceMs > 0 ? stream.frames : [stream.frames.join('')];
  for (const [index, batch] of batches.entries()) {
    if (index > 0 && !(await pause(writing.paceMs, signal))) return;
    if (!(await write(exchange, batch))) return;
  }
  if (stream.ending === 'cut') exchange.cutConnection();
  else res.end();
}

/** Resolves once the data is handed to the socket (so a following cut cannot lose it), or false if the client left. */
function write(exchange: Exchange, data: string): Promise<boolean> {
  const { res, signal } = exchange;
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    res.write(data, (error) => {
      signal.removeEventListener('abort', onAbort);
      resolve(!error && !signal.aborted);
    });
  });
}
