/**
 * The type and pixel size of a PNG, JPEG or WebP image, read from its first
 * bytes only. Nothing is decompressed: the size a limit is judged by must
 * cost no more to learn than the bytes it is written in, whatever the image
 * claims to hold (a few kilobytes of PNG can declare a gigapixel).
 *
 * Each reader follows its format's specification:
 * - PNG: the signature, then the IHDR chunk, which must come first
 *   (PNG specification, 3rd edition, 5.2 and 11.2.1).
 * - JPEG: the marker segments after SOI, up to the first SOFn frame header
 *   (ITU-T T.81, B.1.1.2 markers and fill bytes, B.2.2 frame header).
 * - WebP: the RIFF header, then the first chunk: `VP8 ` (RFC 6386 9.1
 *   frame header), `VP8L` (WebP lossless bitstream spec, 3.2 header) or
 *   `VP8X` (WebP container spec, extended format canvas size).
 */

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp';

export interface ImageDimensions {
  width: number;
  height: number;
}

/** The header is cut short or says something its format does not allow; the message says what, for a client to read. */
export class UnreadableImageHeader extends Error {
  override readonly name = 'UnreadableImageHeader';
}

/** The magic bytes that open each type. WebP is `RIFF`, a 4-byte size, then `WEBP`: `null` marks the size bytes, which any value may fill. */
const SIGNATURES: Record<ImageMime, ReadonlyArray<number | null>> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/webp': [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50],
};

/** The format names used in messages. */
export const FORMAT_NAMES: Record<ImageMime, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' };

/** Whether `bytes` open with the signature of `mime`. */
export function hasSignature(bytes: Uint8Array, mime: ImageMime): boolean {
  const signature = SIGNATURES[mime];
  return bytes.length >= signature.length && signature.every((byte, i) => byte === null || bytes[i] === byte);
}

/** The type whose signature `bytes` open with, or undefined when none of the three. */
export function imageMimeOf(bytes: Uint8Array): ImageMime | undefined {
  return (Object.keys(SIGNATURES) as ImageMime[]).find((mime) => hasSignature(bytes, mime));
}

/**
 * The width and height the header of a `mime` image declares. Throws
 * UnreadableImageHeader when the bytes do not open with that type's
 * signature, end before the size is written, break the format's structure
 * on the way to it, or declare a zero width or height.
 */
export function readImageDimensions(bytes: Buffer, mime: ImageMime): ImageDimensions {
  if (!hasSignature(bytes, mime)) throw new UnreadableImageHeader(`it does not start with the ${FORMAT_NAMES[mime]} signature`);
  const { width, height } = READERS[mime](bytes);
  if (width === 0 || height === 0) throw new UnreadableImageHeader(`its header declares a size of ${width}x${height} pixels`);
  return { width, height };
}

const READERS: Record<ImageMime, (bytes: Buffer) => ImageDimensions> = {
  'image/png': readPng,
  'image/jpeg': readJpeg,
  'image/webp': readWebp,
};

/** Throws unless `bytes` reach at least to offset `end` (exclusive); `what` names what lies there. */
function need(bytes: Buffer, end: number, what: string): void {
  if (bytes.length < end) throw new UnreadableImageHeader(`it ends after ${bytes.length} bytes, before ${what}`);
}

const PNG_SIGNATURE_LENGTH = 8;
const PNG_IHDR_DATA_LENGTH = 13;

/**
 * PNG: IHDR must be the first chunk (length 13, type `IHDR`); its data
 * opens with width and height as 4-byte big-endian integers, each at most
 * 2^31 - 1 (PNG spec 11.2.1). The whole IHDR data must be present; its
 * CRC is not checked.
 */
function readPng(bytes: Buffer): ImageDimensions {
  const chunk = PNG_SIGNATURE_LENGTH;
  need(bytes, chunk + 8, 'its first chunk header');
  const type = bytes.toString('latin1', chunk + 4, chunk + 8);
  const length = bytes.readUInt32BE(chunk);
  if (type !== 'IHDR' || length !== PNG_IHDR_DATA_LENGTH) throw new UnreadableImageHeader('its first chunk is not a 13-byte IHDR chunk');
  const data = chunk + 8;
  need(bytes, data + PNG_IHDR_DATA_LENGTH, 'the end of its IHDR chunk');
  const width = bytes.readUInt32BE(data);
  const height = bytes.readUInt32BE(data + 4);
  if (width > 0x7fffffff || height > 0x7fffffff) throw new UnreadableImageHeader('its IHDR chunk declares a width or height over 2^31 - 1');
  return { width, height };
}

/** Frame headers SOF0-SOF15 are C0-CF, except C4 (DHT), C8 (JPG, reserved) and CC (DAC) (T.81 table B.1). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers that stand alone, with no length after them: TEM (01), RST0-RST7 (D0-D7) and SOI (D8) (T.81 B.1.1.3). */
function isStandaloneMarker(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);
}

const JPEG_SOS = 0xda;
const JPEG_EOI = 0xd9;

/**
 * JPEG: after SOI, walk the marker segments to the first frame header.
 * Each marker is FF and a code, and may be preceded by any number of FF
 * fill bytes (T.81 B.1.1.2); a segment's 2-byte length counts itself but
 * not the marker, so the next marker is that many bytes after the code.
 * The frame header is Lf (2), P (1), Y (2, lines: the height), X (2,
 * samples per line: the width) (T.81 B.2.2). Scan data (SOS) or EOI before
 * any frame header means there is none to read.
 */
function readJpeg(bytes: Buffer): ImageDimensions {
  let at = 2; // past SOI
  for (;;) {
    need(bytes, at + 1, 'its next marker');
    if (bytes[at] !== 0xff) throw new UnreadableImageHeader(`byte ${at} should start a JPEG marker but is 0x${hex(bytes[at])}`);
    while (bytes[at] === 0xff) at++;
    need(bytes, at + 1, 'its next marker');
    const marker = bytes[at];
    at++;
    if (isStartOfFrame(marker)) {
      need(bytes, at + 7, 'the end of its frame header (SOF)');
      return { height: bytes.readUInt16BE(at + 3), width: bytes.readUInt16BE(at + 5) };
    }
    if (marker === JPEG_SOS || marker === JPEG_EOI) throw new UnreadableImageHeader(`it reaches ${marker === JPEG_SOS ? 'its scan data (SOS)' : 'its end (EOI)'} before any frame header (SOF)`);
    if (isStandaloneMarker(marker)) continue;
    if (marker === 0x00) throw new UnreadableImageHeader(`byte ${at - 2} is FF 00, which is not a marker`);
    need(bytes, at + 2, `the length of its segment FF ${hex(marker)}`);
    const length = bytes.readUInt16BE(at);
    if (length < 2) throw new UnreadableImageHeader(`its segment FF ${hex(marker)} has the impossible length ${length}`);
    at += length;
  }
}

const RIFF_HEADER_LENGTH = 12;
const CHUNK_HEADER_LENGTH = 8;

/**
 * WebP: after the 12-byte RIFF header comes the first chunk, a FourCC and
 * a 4-byte size; its data tells the size in one of three ways:
 * - `VP8 ` (lossy): a 3-byte frame tag, the start code 9D 01 2A, then
 *   width and height as 16-bit little-endian values whose low 14 bits are
 *   the size (the top 2 bits are an upscaling hint) (RFC 6386 9.1).
 * - `VP8L` (lossless): the signature byte 2F, then 14 bits of width - 1
 *   and 14 bits of height - 1, least significant first, then the alpha
 *   bit and a 3-bit version that must be 0.
 * - `VP8X` (extended): 1 byte of flags, 3 reserved, then 24 bits each of
 *   canvas width - 1 and canvas height - 1, little-endian.
 */
function readWebp(bytes: Buffer): ImageDimensions {
  need(bytes, RIFF_HEADER_LENGTH + CHUNK_HEADER_LENGTH, 'its first chunk header');
  const fourCc = bytes.toString('latin1', RIFF_HEADER_LENGTH, RIFF_HEADER_LENGTH + 4);
  const data = RIFF_HEADER_LENGTH + CHUNK_HEADER_LENGTH;
  switch (fourCc) {
    case 'VP8 ':
      return readVp8(bytes, data);
    case 'VP8L':
      return readVp8l(bytes, data);
    case 'VP8X':
      return readVp8x(bytes, data);
    default:
      throw new UnreadableImageHeader(`its first chunk is "${printable(fourCc)}", not VP8, VP8L or VP8X`);
  }
}

function readVp8(bytes: Buffer, data: number): ImageDimensions {
  need(bytes, data + 10, 'the end of its VP8 frame header');
  if (bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) {
    throw new UnreadableImageHeader('its VP8 chunk lacks the key frame start code 9D 01 2A');
  }
  return { width: bytes.readUInt16LE(data + 6) & 0x3fff, height: bytes.readUInt16LE(data + 8) & 0x3fff };
}

function readVp8l(bytes: Buffer, data: number): ImageDimensions {
  need(bytes, data + 5, 'the end of its VP8L header');
  if (bytes[data] !== 0x2f) throw new UnreadableImageHeader('its VP8L chunk lacks the signature byte 2F');
  const bits = bytes.readUInt32LE(data + 1);
  if (bits >>> 29 !== 0) throw new UnreadableImageHeader(`its VP8L header has version ${bits >>> 29}, not 0`);
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

function readVp8x(bytes: Buffer, data: number): ImageDimensions {
  need(bytes, data + 10, 'the end of its VP8X canvas size');
  return { width: bytes.readUIntLE(data + 4, 3) + 1, height: bytes.readUIntLE(data + 7, 3) + 1 };
}

function hex(byte: number): string {
  return byte.toString(16).toUpperCase().padStart(2, '0');
}

/** A FourCC fit to quote: bytes outside printable ASCII become `?`. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}
