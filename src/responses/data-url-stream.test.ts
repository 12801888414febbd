import { StreamedStrings, streamJsonBody } from '../providers/streamed-json-body';
import { dataUrlStream } from './data-url-stream';

async function* inChunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function text(stream: AsyncIterable<unknown>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(parts).toString();
}

describe('a file streamed into a JSON body as a data URL', () => {
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7) % 256));

  it.each([1, 2, 3, 4, 64, 1000])('is the same base64 as the whole file, read in chunks of %i bytes', async (size) => {
    const stream = dataUrlStream('application/pdf', bytes.length, () => inChunks(bytes, size));
    const url = await text(stream.text());
    expect(url).toBe(`data:application/pdf;base64,${bytes.toString('base64')}`);
    expect(stream.length).toBe(url.length);
  });

  it('fills every placeholder of the body, and reads the file anew each time the body is sent', async () => {
    const streamed = new StreamedStrings();
    let opened = 0;
    const placeholder = streamed.placeholder(dataUrlStream('image/png', bytes.length, () => (opened++, inChunks(bytes, 10))));
    const body = { model: 'm', input: [{ type: 'input_image', image_url: placeholder }, { type: 'input_text', text: '"quoted"' }] };
    const expected = JSON.stringify({ ...body, input: [{ type: 'input_image', image_url: `data:image/png;base64,${bytes.toString('base64')}` }, body.input[1]] });
    expect(await text(streamJsonBody(body, streamed))).toBe(expected);
    expect(await text(streamJsonBody(body, streamed))).toBe(expected);
    expect(opened).toBe(2);
    expect(streamed.lengthOf(placeholder)).toBe(`data:image/png;base64,${bytes.toString('base64')}`.length);
    expect(streamed.lengthOf('plain')).toBe(5);
  });
});
