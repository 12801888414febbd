/**
 * A Server-Sent Events parser (the WHATWG event-stream grammar): lines end in
 * LF, CRLF or CR; `event:` names the event, `data:` lines join with LF; a
 * blank line dispatches. Comments (`:`) and unknown fields are skipped.
 */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

export async function* parseSse(source: AsyncIterable<Buffer | string>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];
  for await (const chunk of source) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const end = findLineEnd(buffer, start);
      if (end === -1) break;
      const line = buffer.slice(start, end);
      // A CR at the very end of the buffer may be the first half of a CRLF still in flight.
      if (buffer[end] === '\r' && end + 1 === buffer.length) break;
      start = end + (buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1);
      if (line === '') {
        if (data.length) yield { event, data: data.join('\n') };
        event = undefined;
        data = [];
        continue;
      }
      if (line.charCodeAt(0) === 58 /* : */) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.charCodeAt(0) === 32) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
    buffer = buffer.slice(start);
  }
  buffer += decoder.decode();
  if (buffer.length && !buffer.startsWith(':')) {
    // Some upstreams close without the final blank line; a complete last field is still an event.
    const colon = buffer.indexOf(':');
    if (buffer.slice(0, colon) === 'data') data.push(buffer.slice(colon + 1).replace(/^ /, ''));
  }
  if (data.length) yield { event, data: data.join('\n') };
}

function findLineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return -1;
}
