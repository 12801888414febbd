import type { StreamedString } from '../providers/streamed-json-body';

/**
 * A file of `bytes` bytes as a streamed `data:` URL: the prefix, then the
 * base64 of its bytes as they are read, three bytes to four characters. A
 * chunk's last one or two bytes wait for the next chunk, so the pieces join
 * into one valid base64 string; only those and the current chunk are held.
 */
export function dataUrlStream(mimeType: string, bytes: number, open: () => AsyncIterable<Buffer>): StreamedString {
  const prefix = `data:${mimeType};base64,`;
  return {
    length: prefix.length + 4 * Math.ceil(bytes / 3),
    async *text() {
      yield prefix;
      yield* base64Chunks(open());
    },
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
