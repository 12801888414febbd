import { GatewayError } from '../errors/gateway-error';
import { DECISION_IMAGE_LIMITS, readDecisionImages } from './decision-images';

const MIB = 1024 * 1024;

// --- test images: real headers, then zero bytes up to the size a test needs ---

const u32be = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };

/** A PNG header (signature, IHDR declaring width x height, CRC) padded with zeros to `size` bytes. */
function png(width: number, height: number, size = 33): Buffer {
  const ihdr = Buffer.concat([u32be(13), Buffer.from('IHDR', 'latin1'), u32be(width), u32be(height), Buffer.from([8, 6, 0, 0, 0]), u32be(0)]);
  const header = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
  return Buffer.concat([header, Buffer.alloc(size - header.length)]);
}

/** SOI, then a baseline frame header (SOF0): width x height, one component. */
function jpeg(width: number, height: number): Buffer {
  const frame = Buffer.alloc(13);
  frame.set([0xff, 0xc0, 0x00, 0x0b, 8]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  frame.set([1, 1, 0x11, 0], 9);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), frame]);
}

/** A RIFF WebP with one VP8X chunk: 24-bit canvas width - 1 and height - 1. */
function webp(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  const chunk = Buffer.concat([Buffer.from('VP8X', 'latin1'), Buffer.from([10, 0, 0, 0]), data]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunk.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, Buffer.from('WEBP', 'latin1'), chunk]);
}

const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1');

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
const pngUrl = (width = 1, height = 1, size?: number) => dataUrl('image/png', png(width, height, size));

/** The GatewayError `readDecisionImages` throws, as the parts a client sees. */
function refusal(images: unknown, maxImages = 4) {
  try {
    readDecisionImages(images, maxImages);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return { status: err.status, code: err.code, param: err.options.param, message: err.message, details: err.options.details };
  }
  throw new Error('the images were accepted');
}

describe('readDecisionImages', () => {
  describe('what it accepts', () => {
    it('reads PNG, JPEG and WebP data URLs, as strings or {url} objects, in order', () => {
      const urls = [pngUrl(640, 480), dataUrl('image/jpeg', jpeg(800, 600)), dataUrl('image/webp', webp(1024, 768))];
      const images = readDecisionImages([urls[0], { url: urls[1] }, urls[2]], 4);
      expect(images).toEqual([
        { mime: 'image/png', bytes: 33, width: 640, height: 480, dataUrl: urls[0] },
        { mime: 'image/jpeg', bytes: 15, width: 800, height: 600, dataUrl: urls[1] },
        { mime: 'image/webp', bytes: 30, width: 1024, height: 768, dataUrl: urls[2] },
      ]);
    });

    it('takes the media type in any case and with parameters, and forwards the data URL as given', () => {
      const url = `data:IMAGE/PNG;name=a.png;base64,${png(2, 3).toString('base64')}`;
      expect(readDecisionImages([url], 1)).toEqual([{ mime: 'image/png', bytes: 33, width: 2, height: 3, dataUrl: url }]);
    });

    it('an absent field or an empty array is no images', () => {
      expect(readDecisionImages(undefined, 4)).toEqual([]);
      expect(readDecisionImages([], 0)).toEqual([]);
    });
  });

  describe('the shape of `images`', () => {
    it.each<[string, unknown]>([
      ['a string', pngUrl()],
      ['an object', { url: pngUrl() }],
      ['null', null],
    ])('refuses %s instead of an array', (kind, images) => {
      expect(refusal(images)).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'images', message: `"images" must be an array of image data URLs; got ${kind}.` });
    });

    it.each<[string, unknown, string, string]>([
      ['a number', 42, 'images[1]', 'a number'],
      ['null', null, 'images[1]', 'null'],
      ['an array', [pngUrl()], 'images[1]', 'an array'],
      ['a boolean', true, 'images[1]', 'a boolean'],
      ['an object whose url is not a string', { url: 7 }, 'images[1].url', 'a number'],
      ['an object without url', {}, 'images[1].url', 'nothing'],
    ])('refuses an item that is %s', (_name, item, param, kind) => {
      const refused = refusal([pngUrl(), item]);
      expect(refused).toMatchObject({ status: 400, code: 'invalid_parameter', param, details: { index: 1 } });
      expect(refused.message).toContain(`got ${kind}.`);
    });

    it('refuses an image object with a field besides url', () => {
      expect(refusal([{ url: pngUrl(), detail: 'high' }])).toMatchObject({
        code: 'invalid_parameter',
        param: 'images[0]',
        message: '"images[0]" has the unknown field "detail"; an image object takes only "url".',
      });
    });
  });

  describe('the number of images', () => {
    it('takes maxImages images and refuses one more, before reading any of them', () => {
      expect(readDecisionImages(Array(4).fill(pngUrl()), 4)).toHaveLength(4);
      expect(refusal(Array(5).fill('not even an image'), 4)).toEqual({
        status: 400,
        code: 'invalid_parameter',
        param: 'images',
        message: '"images" holds 5 images; this model takes at most 4.',
        details: { count: 5, limit: 4 },
      });
    });

    it('says so when the model takes no images', () => {
      expect(refusal([pngUrl()], 0)).toMatchObject({ param: 'images', message: '"images" holds 1 images; this model takes no images.' });
    });
  });

  describe('what is not a PNG, JPEG or WebP data URL', () => {
    it.each<[string, string, string, string]>([
      ['an https URL', 'https://example.com/cat.png', 'remote_url', 'is a remote URL'],
      ['an http URL, in capitals', 'HTTP://example.com/cat.png', 'remote_url', 'is a remote URL'],
      ['a file id', 'file-abc123', 'file_id', 'is a file id ("file-abc123"); /v1/decisions does not read uploaded files'],
      ['any other string', 'iVBORw0KGgo=', 'not_data_url', 'is not a data URL'],
      ['an audio data URL', 'data:audio/mpeg;base64,SUQz', 'audio', 'is audio ("audio/mpeg"); /v1/decisions takes images only'],
      ['a video data URL', 'data:video/mp4;base64,AAAA', 'video', 'is video ("video/mp4"); /v1/decisions takes images only'],
      ['a GIF', dataUrl('image/gif', GIF), 'unsupported_type', 'is of type "image/gif", which is not accepted'],
      ['an SVG', 'data:image/svg+xml;base64,PHN2Zz4=', 'unsupported_type', 'is of type "image/svg+xml"'],
      ['image/jpg (not a registered type)', dataUrl('image/jpg', jpeg(1, 1)), 'unsupported_type', 'is of type "image/jpg"'],
      ['text', 'data:text/plain;base64,aGk=', 'unsupported_type', 'is of type "text/plain"'],
      ['a data URL without a type', 'data:;base64,aGk=', 'unsupported_type', 'is a data URL with no media type'],
      ['a data URL that is not base64', 'data:image/png,%89PNG', 'not_base64', 'is not base64-encoded'],
      ['a data URL without a comma', 'data:image/png;base64', 'not_base64', 'is not base64-encoded'],
    ])('refuses %s', (_name, url, reason, problem) => {
      const refused = refusal([pngUrl(), url]);
      expect(refused).toMatchObject({ status: 400, code: 'invalid_image', param: 'images[1]', details: { index: 1, reason } });
      expect(refused.message).toContain(`images[1] ${problem}`);
      expect(refused.message).toContain('Send each image inline as a base64 data URL of a PNG, JPEG or WebP image');
    });

    it('names the url field of an object item', () => {
      expect(refusal([{ url: 'https://example.com/cat.png' }])).toMatchObject({ code: 'invalid_image', param: 'images[0].url', details: { index: 0, reason: 'remote_url' } });
    });

    it('quotes at most 64 characters of what the client sent', () => {
      const { message } = refusal([`file-${'x'.repeat(10_000)}`]);
      expect(message).toContain(`"file-${'x'.repeat(59)}..."`);
      expect(message.length).toBeLessThan(400);
    });
  });

  describe('malformed base64', () => {
    const payload = png(1, 1, 34).toString('base64'); // 48 characters, ending in "=="
    it.each<[string, string, string]>([
      ['an empty payload', '', 'an empty base64 payload'],
      ['a length that is not a multiple of 4', payload.slice(0, -1), 'a base64 payload of 47 characters, not a multiple of 4 (pad it with =)'],
      ['unpadded base64', payload.replace(/=+$/, ''), 'not a multiple of 4'],
      ['a character outside the alphabet', `*${payload.slice(1)}`, 'a character that is not base64 at offset 0 of its payload ("*")'],
      ['whitespace', `${payload.slice(0, 20)}\n${payload.slice(21)}`, 'at offset 20 of its payload (whitespace)'],
      ['base64url characters', `${payload.slice(0, 4)}-_${payload.slice(6)}`, 'at offset 4 of its payload ("-")'],
      ['padding inside the payload', `${payload.slice(0, 8)}=${payload.slice(9)}`, 'at offset 8 of its payload ("=" before the end)'],
    ])('refuses %s', (_name, base64, problem) => {
      const refused = refusal([`data:image/png;base64,${base64}`]);
      expect(refused).toMatchObject({ code: 'invalid_image', param: 'images[0]', details: { index: 0, reason: 'malformed_base64' } });
      expect(refused.message).toMatch(/^images\[0\] has /);
      expect(refused.message).toContain(problem);
    });
  });

  describe('bytes that are not what the media type says', () => {
    it.each<[string, string, Buffer, string]>([
      ['PNG bytes', 'image/jpeg', png(1, 1), 'says image/jpeg but its bytes are a PNG image'],
      ['JPEG bytes', 'image/webp', jpeg(1, 1), 'says image/webp but its bytes are a JPEG image'],
      ['WebP bytes', 'image/png', webp(1, 1), 'says image/png but its bytes are a WebP image'],
      ['GIF bytes', 'image/png', GIF, 'says image/png but its bytes do not start with the PNG signature'],
      ['text', 'image/jpeg', Buffer.from('hello world'), 'says image/jpeg but its bytes do not start with the JPEG signature'],
    ])('refuses %s sent as %s', (_name, mime, bytes, problem) => {
      const refused = refusal([dataUrl(mime, bytes)]);
      expect(refused).toMatchObject({ code: 'invalid_image', param: 'images[0]', details: { index: 0, reason: 'type_mismatch' } });
      expect(refused.message).toContain(`images[0] ${problem}`);
    });

    it.each<[string, string, Buffer, string]>([
      ['a PNG cut inside IHDR', 'image/png', png(1, 1).subarray(0, 20), 'is not a readable PNG image: it ends after 20 bytes, before the end of its IHDR chunk'],
      ['a JPEG with no frame header', 'image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'is not a readable JPEG image: it reaches its end (EOI) before any frame header (SOF)'],
      ['a WebP cut inside VP8X', 'image/webp', webp(1, 1).subarray(0, 25), 'is not a readable WebP image: it ends after 25 bytes, before the end of its VP8X canvas size'],
    ])('refuses %s as an unreadable header', (_name, mime, bytes, problem) => {
      const refused = refusal([{ url: dataUrl(mime, bytes) }]);
      expect(refused).toMatchObject({ code: 'invalid_image', param: 'images[0].url', details: { index: 0, reason: 'unreadable_header' } });
      expect(refused.message).toContain(`images[0].url ${problem}`);
    });
  });

  describe('4 MiB decoded per image', () => {
    const limit = DECISION_IMAGE_LIMITS.maxImageBytes;

    it('is exactly 4 MiB', () => {
      expect(limit).toBe(4 * MIB);
    });

    it('takes an image of exactly 4 MiB, whatever its padding', () => {
      for (const size of [limit, limit - 1, limit - 2]) {
        expect(readDecisionImages([pngUrl(100, 100, size)], 4)).toEqual([expect.objectContaining({ bytes: size, width: 100, height: 100 })]);
      }
    });

    it('refuses 4 MiB + 1 byte, with the size and the limit', () => {
      expect(refusal([pngUrl(100, 100, limit + 1)])).toEqual({
        status: 400,
        code: 'image_too_large',
        param: 'images[0]',
        message: 'images[0] is 4194305 bytes decoded; the limit is 4194304 bytes (4 MiB) per image.',
        details: { index: 0, bytes: limit + 1, limit },
      });
    });

    it('measures the payload from its length, without decoding it or scanning its characters', () => {
      // The base64 length of 4 MiB + 2 bytes, in characters none of which is base64.
      const images = [{ url: `data:image/webp;base64,${'*'.repeat(((limit + 2) / 3) * 4)}` }];
      const from = jest.spyOn(Buffer, 'from');
      const refused = refusal(images);
      expect(refused).toMatchObject({ code: 'image_too_large', param: 'images[0].url', details: { bytes: limit + 2 } });
      expect(from).not.toHaveBeenCalled();
    });
  });

  describe('16 million pixels per image, read from the header', () => {
    it('is 16,000,000', () => {
      expect(DECISION_IMAGE_LIMITS.maxPixels).toBe(16_000_000);
    });

    it.each<[string, (w: number, h: number) => string]>([
      ['PNG', (w, h) => pngUrl(w, h)],
      ['JPEG', (w, h) => dataUrl('image/jpeg', jpeg(w, h))],
      ['WebP', (w, h) => dataUrl('image/webp', webp(w, h))],
    ])('takes a %s of 4000x4000 and refuses one of 641x24961 (16,000,001 pixels)', (_format, url) => {
      expect(readDecisionImages([url(4000, 4000)], 4)).toEqual([expect.objectContaining({ width: 4000, height: 4000 })]);
      expect(refusal([pngUrl(), url(641, 24961)])).toEqual({
        status: 400,
        code: 'image_too_large',
        param: 'images[1]',
        message: 'images[1] is 641x24961 = 16000001 pixels; the limit is 16000000 pixels per image.',
        details: { index: 1, width: 641, height: 24961, pixels: 16_000_001, limit: 16_000_000 },
      });
    });

    it('refuses a gigapixel header in a few bytes', () => {
      expect(refusal([pngUrl(100_000, 100_000)])).toMatchObject({ code: 'image_too_large', details: { pixels: 1e10 } });
    });
  });

  describe('8 MiB decoded over all the images', () => {
    const limit = DECISION_IMAGE_LIMITS.maxTotalBytes;
    const fourMib = pngUrl(1, 1, 4 * MIB);
    const almostFourMib = pngUrl(1, 1, 4 * MIB - 100);

    it('is exactly 8 MiB', () => {
      expect(limit).toBe(8 * MIB);
    });

    it('takes images of exactly 8 MiB in all', () => {
      const images = readDecisionImages([fourMib, almostFourMib, pngUrl(1, 1, 100)], 4);
      expect(images.reduce((sum, image) => sum + image.bytes, 0)).toBe(limit);
    });

    it('refuses 8 MiB + 1 byte in all, before decoding the image that passes it', () => {
      const images = [fourMib, almostFourMib, { url: pngUrl(1, 1, 101) }];
      const from = jest.spyOn(Buffer, 'from');
      expect(refusal(images)).toEqual({
        status: 400,
        code: 'image_too_large',
        param: 'images',
        message: 'The images up to images[2].url are 8388609 bytes decoded in all; the limit is 8388608 bytes (8 MiB) for all the images of a request.',
        details: { index: 2, bytes: limit + 1, limit },
      });
      expect(from).toHaveBeenCalledTimes(2);
    });
  });
});
