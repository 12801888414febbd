import type { StreamedText } from '../providers/streamed-json-body';

/**
 * A file's `data:` URL as streamed text: the prefix, then the base64 of its
 * bytes as they are read, three bytes to four characters. A chunk's last one
 * or two bytes wait for the next chunk, so the pieces join into one valid
 * base64 string; only those and the current chunk are held.
 */
export function dataUrlStream(mimeType: string, open: () => AsyncIterable<Buffer>): StreamedText {
  return async function* () {
    yield `data:${mimeType};base64,`;
    yield* base64Chunks(open());
  };
}

async function* base64Chunks(bytes: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of bytes) {
    const all = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const whole = all.length - (all.length % 3);
    if (whole) yield all.subarray(0, whole).toString('base64');
    rest = Buffer.from(all.subarray(whole));
  }
  if (rest.length) yield rest.toString('base64');
}
