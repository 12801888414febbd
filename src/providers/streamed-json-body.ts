import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';

/**
 * The text of one JSON string value, produced only while the body is being
 * sent (a file's base64, read from storage as it goes). It must need no JSON
 * escaping (base64 and a `data:` URL prefix need none). Called once per
 * sending, so that every attempt of a call reads its source anew.
 */
export type StreamedText = () => AsyncIterable<string | Buffer>;

/** A streamed string value and the number of characters it streams (known before it is read). */
export interface StreamedString {
  text: StreamedText;
  length: number;
}

/**
 * String values of a JSON body that are too large to hold: the body carries
 * a placeholder for each (a string no client can guess), and
 * `streamJsonBody` sends the body's text around them with each one's text
 * streamed in its place. The JSON around them stays an ordinary value that
 * any adapter may reshape (model name, stream flag) before it is sent.
 */
export class StreamedStrings {
  private readonly tag = `@@streamed-${randomUUID()}-`;
  private readonly strings: StreamedString[] = [];

  /** A placeholder to put where `string`'s text goes in the body. */
  placeholder(string: StreamedString): string {
    this.strings.push(string);
    return `${this.tag}${this.strings.length - 1}@@`;
  }

  /** The length of the string `value` stands for: a placeholder's streamed length, else its own. */
  lengthOf(value: string): number {
    const index = value.startsWith(this.tag) ? Number(value.slice(this.tag.length, -2)) : NaN;
    return this.strings[index]?.length ?? value.length;
  }

  get size(): number {
    return this.strings.length;
  }

  /** The body's JSON text, split around the placeholders it holds: text, then streamed text, and so on. */
  *parts(value: unknown): Generator<string | StreamedText> {
    const json = JSON.stringify(value);
    const pattern = new RegExp(`${this.tag}(\\d+)@@`, 'g');
    let at = 0;
    for (const match of json.matchAll(pattern)) {
      yield json.slice(at, match.index);
      yield this.strings[Number(match[1])]!.text;
      at = match.index + match[0].length;
    }
    yield json.slice(at);
  }
}

/**
 * `value` as a JSON body stream with every placeholder of `strings`
 * replaced by its streamed text. Nothing larger than one chunk of a source
 * is held at a time, and the stream's consumer sets the pace (backpressure).
 */
export function streamJsonBody(value: unknown, strings: StreamedStrings): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    for (const part of strings.parts(value)) {
      if (typeof part === 'string') {
        if (part) yield Buffer.from(part);
        continue;
      }
      for await (const chunk of part()) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
