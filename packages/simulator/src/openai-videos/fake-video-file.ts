import { hashString, seededRandom } from '../deterministic-random';

/**
 * Deterministic stand-ins for the files `GET /v1/videos/{id}/content` serves:
 * the right magic bytes (an MP4 `ftyp` box, a WebP RIFF header, a JPEG
 * start and end marker) around pseudo-random filler, so that a client that
 * sniffs the type or checks the length sees nothing unusual. The video's size
 * follows its duration and pixel count, about 200 KB per second at 720p. The
 * formats of `thumbnail` (WebP) and `spritesheet` (JPEG) are not confirmed.
 * Files are produced chunk by chunk, never whole.
 * @see https://platform.openai.com/docs/api-reference/videos/content
 */
export const CONTENT_VARIANTS = ['video', 'thumbnail', 'spritesheet'] as const;
export type ContentVariant = (typeof CONTENT_VARIANTS)[number];

export interface FakeVideoFile {
  contentType: string;
  length: number;
  chunks(): Generator<Buffer>;
}

const BYTES_PER_SECOND_AT_720P = 200_000;
const PIXELS_AT_720P = 1280 * 720;
const THUMBNAIL_BYTES = 20_000;
const SPRITESHEET_BYTES = 80_000;
const CHUNK_BYTES = 64 * 1024;

export function isContentVariant(value: string): value is ContentVariant {
  return (CONTENT_VARIANTS as readonly string[]).includes(value);
}

/** The file for a video of `seconds` and `size` (`WIDTHxHEIGHT`); the same `seed` always gives the same bytes. */
export function fakeVideoFile(variant: ContentVariant, seconds: number, size: string, seed: string): FakeVideoFile {
  switch (variant) {
    case 'video': {
      const length = Math.round((seconds * BYTES_PER_SECOND_AT_720P * pixelCount(size)) / PIXELS_AT_720P);
      return framedFile('video/mp4', mp4Header(length), Buffer.alloc(0), length, seed);
    }
    case 'thumbnail':
      return framedFile('image/webp', webpHeader(THUMBNAIL_BYTES), Buffer.alloc(0), THUMBNAIL_BYTES, seed);
    case 'spritesheet':
      return framedFile('image/jpeg', Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.from('ffd9', 'hex'), SPRITESHEET_BYTES, seed);
  }
}

function pixelCount(size: string): number {
  const [width = 0, height = 0] = size.split('x').map(Number);
  return width * height;
}

/** `ftyp` (brand isom, compatible isom/iso2/avc1/mp41), then one `mdat` box holding the rest. */
function mp4Header(length: number): Buffer {
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('isom'), uint32(0x200), Buffer.from('isomiso2avc1mp41')]));
  const mdatHeader = Buffer.concat([uint32(length - ftyp.length), Buffer.from('mdat')]);
  return Buffer.concat([ftyp, mdatHeader]);
}

/** RIFF container, WebP form, one lossy `VP8 ` chunk holding the rest. */
function webpHeader(length: number): Buffer {
  const riffSize = Buffer.alloc(4);
  riffSize.writeUInt32LE(length - 8);
  const chunkSize = Buffer.alloc(4);
  chunkSize.writeUInt32LE(length - 20);
  return Buffer.concat([Buffer.from('RIFF'), riffSize, Buffer.from('WEBPVP8 '), chunkSize]);
}

function box(type: string, payload: Buffer): Buffer {
  return Buffer.concat([uint32(8 + payload.length), Buffer.from(type), payload]);
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

function framedFile(contentType: string, header: Buffer, trailer: Buffer, length: number, seed: string): FakeVideoFile {
  return {
    contentType,
    length,
    *chunks() {
      const filler = fillerBlock(seed);
      yield header;
      let remaining = length - header.length - trailer.length;
      while (remaining > 0) {
        const take = Math.min(remaining, filler.length);
        yield filler.subarray(0, take);
        remaining -= take;
      }
      if (trailer.length > 0) yield trailer;
    },
  };
}

/** One block of seeded bytes, repeated through the file: cheap, and still a pure function of the seed. */
function fillerBlock(seed: string): Buffer {
  const random = seededRandom(hashString(seed));
  const block = Buffer.alloc(CHUNK_BYTES);
  for (let offset = 0; offset < block.length; offset += 4) block.writeUInt32LE(Math.floor(random() * 0x1_0000_0000), offset);
  return block;
}
