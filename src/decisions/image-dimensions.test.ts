import { UnreadableImageHeader, hasSignature, imageMimeOf, readImageDimensions, type ImageMime } from './image-dimensions';

// --- headers written byte by byte, after each format's spec -------------------

const u16be = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const u32be = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
const u16le = (n: number) => { const b = Buffer.alloc(2); b.writeUInt16LE(n); return b; };
const u24le = (n: number) => { const b = Buffer.alloc(3); b.writeUIntLE(n, 0, 3); return b; };
const u32le = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Signature, then the IHDR chunk: length 13, type, width, height, depth 8, RGBA, then a CRC (not checked, so zero). */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 6, 0, 0, 0])]);
  return Buffer.concat([PNG_SIGNATURE, u32be(ihdr.length), Buffer.from('IHDR', 'latin1'), ihdr, u32be(0)]);
}

/** A marker segment: FF, the code, a length counting itself, the payload (T.81 B.1.1.4). */
const segment = (marker: number, payload: Buffer) => Buffer.concat([Buffer.from([0xff, marker]), u16be(payload.length + 2), payload]);

/** A frame header: precision 8, lines (height), samples per line (width), one component (T.81 B.2.2). */
const sof = (marker: number, width: number, height: number) => segment(marker, Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([1, 1, 0x11, 0])]));

const SOI = Buffer.from([0xff, 0xd8]);
const APP0_JFIF = segment(0xe0, Buffer.from('JFIF\0\x01\x02\0\0\x01\0\x01\0\0', 'latin1'));
const APP1_EXIF = segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.alloc(300, 0xff)]));
/** A DHT segment (FF C4, inside the SOFn range but not a frame header) whose bytes would read as a 9999x9999 frame. */
const DHT = segment(0xc4, Buffer.from([0, 0x27, 0x0f, 0x27, 0x0f, 1, 1, 0x11, 0]));
const SOS = segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0]));

const jpeg = (...parts: Buffer[]) => Buffer.concat([SOI, ...parts]);

/** A RIFF WebP file holding one chunk. */
function webp(fourCc: string, data: Buffer): Buffer {
  const padded = data.length % 2 ? Buffer.concat([data, Buffer.alloc(1)]) : data;
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), u32le(4 + 8 + padded.length), Buffer.from('WEBP', 'latin1'), Buffer.from(fourCc, 'latin1'), u32le(data.length), padded]);
}

/** Lossy: a key frame tag, the start code, 14-bit width and height with the 2 scale bits above them. */
const vp8 = (width: number, height: number, scale = 0) =>
  webp('VP8 ', Buffer.concat([Buffer.from([0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a]), u16le(width | (scale << 14)), u16le(height | (scale << 14)), Buffer.alloc(8)]));

/** Lossless: the signature 2F, then width - 1 and height - 1 in 14 bits each, alpha bit, version. */
const vp8l = (width: number, height: number, version = 0) =>
  webp('VP8L', Buffer.concat([Buffer.from([0x2f]), u32le(((width - 1) | ((height - 1) << 14) | (1 << 28) | (version << 29)) >>> 0), Buffer.alloc(4)]));

/** Extended: flags, 3 reserved bytes, canvas width - 1 and height - 1 in 24 bits each. */
const vp8x = (width: number, height: number) => webp('VP8X', Buffer.concat([Buffer.from([0x10, 0, 0, 0]), u24le(width - 1), u24le(height - 1)]));

const read = (bytes: Buffer, mime: ImageMime) => readImageDimensions(bytes, mime);
const refusal = (bytes: Buffer, mime: ImageMime) => {
  try {
    readImageDimensions(bytes, mime);
  } catch (err) {
    expect(err).toBeInstanceOf(UnreadableImageHeader);
    return (err as Error).message;
  }
  throw new Error('the header was read');
};

describe('image signatures', () => {
  it.each<[string, Buffer, ImageMime | undefined]>([
    ['PNG', png(1, 1), 'image/png'],
    ['JPEG', jpeg(sof(0xc0, 1, 1)), 'image/jpeg'],
    ['WebP, whatever its RIFF size', Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 2, 3, 4]), Buffer.from('WEBP')]), 'image/webp'],
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), undefined],
    ['RIFF WAVE audio', Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1'), undefined],
    ['a PNG signature cut short', PNG_SIGNATURE.subarray(0, 7), undefined],
    ['FF D8 without the third FF', Buffer.from([0xff, 0xd8, 0x00]), undefined],
    ['nothing', Buffer.alloc(0), undefined],
  ])('%s is %s', (_name, bytes, mime) => {
    expect(imageMimeOf(bytes)).toBe(mime);
  });

  it('a reader refuses bytes without its signature', () => {
    expect(hasSignature(png(1, 1), 'image/jpeg')).toBe(false);
    expect(refusal(png(1, 1), 'image/jpeg')).toBe('it does not start with the JPEG signature');
    expect(refusal(jpeg(sof(0xc0, 1, 1)), 'image/webp')).toBe('it does not start with the WebP signature');
  });
});

describe('reading the size from the header', () => {
  describe('PNG (IHDR)', () => {
    it('reads width and height from IHDR', () => {
      expect(read(png(640, 480), 'image/png')).toEqual({ width: 640, height: 480 });
      expect(read(png(2 ** 31 - 1, 1), 'image/png')).toEqual({ width: 2 ** 31 - 1, height: 1 });
    });

    it('refuses a first chunk that is not IHDR, a zero size and a size over 2^31 - 1', () => {
      const idat = Buffer.from(png(1, 1));
      idat.write('IDAT', 12, 'latin1');
      expect(refusal(idat, 'image/png')).toBe('its first chunk is not a 13-byte IHDR chunk');
      expect(refusal(png(0, 10), 'image/png')).toBe('its header declares a size of 0x10 pixels');
      expect(refusal(png(2 ** 31, 1), 'image/png')).toMatch(/over 2\^31 - 1/);
    });
  });

  describe('JPEG (markers up to the first SOFn)', () => {
    it('reads a baseline (SOF0) and a progressive (SOF2) frame header', () => {
      expect(read(jpeg(sof(0xc0, 800, 600), SOS), 'image/jpeg')).toEqual({ width: 800, height: 600 });
      expect(read(jpeg(sof(0xc2, 1024, 768), SOS), 'image/jpeg')).toEqual({ width: 1024, height: 768 });
    });

    const frameMarkers = [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf];
    it.each(frameMarkers.map((marker) => [marker.toString(16).toUpperCase(), marker]))('FF %s is a frame header', (_hex, marker) => {
      expect(read(jpeg(sof(marker, 65535, 3), SOS), 'image/jpeg')).toEqual({ width: 65535, height: 3 });
    });

    it('skips APPn segments by their length before the frame header', () => {
      expect(read(jpeg(APP0_JFIF, APP1_EXIF, sof(0xc0, 3000, 2000), SOS), 'image/jpeg')).toEqual({ width: 3000, height: 2000 });
    });

    it('skips DHT (C4), JPG (C8) and DAC (CC), which sit among the SOF codes but are no frame header', () => {
      const notFrames = [0xc4, 0xc8, 0xcc].map((marker) => segment(marker, DHT.subarray(4)));
      expect(read(jpeg(DHT, ...notFrames, sof(0xc0, 10, 20)), 'image/jpeg')).toEqual({ width: 10, height: 20 });
    });

    it('takes fill bytes (any number of FF) before a marker, and standalone markers with no length', () => {
      const fill = Buffer.from([0xff, 0xff, 0xff]);
      const rst0 = Buffer.from([0xff, 0xd0]);
      expect(read(jpeg(fill, APP0_JFIF, rst0, fill, sof(0xc0, 7, 9)), 'image/jpeg')).toEqual({ width: 7, height: 9 });
    });

    it.each<[string, Buffer, RegExp]>([
      ['scan data before any frame header', jpeg(APP0_JFIF, SOS), /scan data \(SOS\) before any frame header/],
      ['EOI before any frame header', jpeg(APP0_JFIF, Buffer.from([0xff, 0xd9])), /its end \(EOI\) before any frame header/],
      ['no more segments', jpeg(APP0_JFIF), /ends after 20 bytes, before its next marker/],
      ['a segment that claims more bytes than there are', jpeg(segment(0xe1, Buffer.alloc(10)).subarray(0, 8)), /before its next marker/],
      ['a segment length under 2', jpeg(Buffer.from([0xff, 0xe0, 0x00, 0x01])), /impossible length 1/],
      ['a byte that is no marker where one should be', jpeg(APP0_JFIF, Buffer.from([0x12, 0xff, 0xc0])), /byte 20 should start a JPEG marker but is 0x12/],
      ['FF 00 where a marker should be', jpeg(Buffer.from([0xff, 0x00])), /FF 00, which is not a marker/],
      ['a frame header with zero lines (height given later by DNL)', jpeg(sof(0xc0, 10, 0)), /size of 10x0 pixels/],
    ])('refuses %s', (_name, bytes, message) => {
      expect(refusal(bytes, 'image/jpeg')).toMatch(message);
    });
  });

  describe('WebP (the first chunk after the RIFF header)', () => {
    it('reads VP8 (lossy), masking the 2 scale bits', () => {
      expect(read(vp8(4000, 3000), 'image/webp')).toEqual({ width: 4000, height: 3000 });
      expect(read(vp8(16383, 16383, 3), 'image/webp')).toEqual({ width: 16383, height: 16383 });
    });

    it('reads VP8L (lossless) from its 14-bit fields, 1 to 16384', () => {
      expect(read(vp8l(1, 1), 'image/webp')).toEqual({ width: 1, height: 1 });
      expect(read(vp8l(4000, 3000), 'image/webp')).toEqual({ width: 4000, height: 3000 });
      expect(read(vp8l(16384, 16384), 'image/webp')).toEqual({ width: 16384, height: 16384 });
    });

    it('reads VP8X (extended) canvas size from its 24-bit fields, 1 to 2^24', () => {
      expect(read(vp8x(641, 24961), 'image/webp')).toEqual({ width: 641, height: 24961 });
      expect(read(vp8x(2 ** 24, 1), 'image/webp')).toEqual({ width: 2 ** 24, height: 1 });
    });

    it.each<[string, Buffer, RegExp]>([
      ['a VP8 chunk without the start code 9D 01 2A', (() => { const b = vp8(10, 10); b[23] = 0; return b; })(), /lacks the key frame start code/],
      ['a VP8L chunk without the signature 2F', (() => { const b = vp8l(10, 10); b[20] = 0x2e; return b; })(), /lacks the signature byte 2F/],
      ['a VP8L version other than 0', vp8l(10, 10, 1), /version 1, not 0/],
      ['a VP8 frame of zero width', vp8(0, 10), /size of 0x10 pixels/],
      ['a first chunk that tells no size', webp('ALPH', Buffer.alloc(16)), /first chunk is "ALPH", not VP8, VP8L or VP8X/],
      ['a first chunk with an unprintable name', webp('\x00\x01AB', Buffer.alloc(16)), /first chunk is "\?\?AB"/],
    ])('refuses %s', (_name, bytes, message) => {
      expect(refusal(bytes, 'image/webp')).toMatch(message);
    });
  });

  /** Each header cut one byte short of what its size needs, and at every length before that. */
  describe.each<[string, Buffer, ImageMime, number]>([
    ['PNG', png(300, 200), 'image/png', 8 + 8 + 13],
    ['JPEG SOF0', jpeg(sof(0xc0, 300, 200)), 'image/jpeg', 2 + 2 + 7],
    ['JPEG with APP0 before SOF2', jpeg(APP0_JFIF, sof(0xc2, 300, 200)), 'image/jpeg', 2 + APP0_JFIF.length + 2 + 7],
    ['WebP VP8', vp8(300, 200), 'image/webp', 20 + 10],
    ['WebP VP8L', vp8l(300, 200), 'image/webp', 20 + 5],
    ['WebP VP8X', vp8x(300, 200), 'image/webp', 20 + 10],
  ])('a truncated %s header', (_name, bytes, mime, needed) => {
    it(`is read from its first ${needed} bytes`, () => {
      expect(read(bytes.subarray(0, needed), mime)).toEqual({ width: 300, height: 200 });
    });

    it('is refused at every shorter length', () => {
      for (let length = 0; length < needed; length++) {
        expect(() => read(bytes.subarray(0, length), mime)).toThrow(UnreadableImageHeader);
      }
    });
  });
});
