import { GatewayError } from '../errors/gateway-error';
import { FORMAT_NAMES, UnreadableImageHeader, imageMimeOf, readImageDimensions, type ImageMime } from './image-dimensions';

/**
 * The images of a `POST /v1/decisions` request, checked before anything is
 * sent upstream: only inline PNG, JPEG and WebP data URLs, each within a
 * decoded size and a pixel count, all within a decoded total.
 *
 * The checks are ordered so that the costly ones see only what passed the
 * cheap ones: the item count first; then, per image, the decoded size,
 * computed from the base64 length alone, so that an oversized string is
 * refused without being decoded; then the running total; only then is the
 * image decoded (once) and its header read for the type its bytes prove
 * and the pixel size it declares. No image is ever decompressed.
 */

const MIB = 1024 * 1024;

export const DECISION_IMAGE_LIMITS = {
  /** Decoded bytes of one image; exactly this many pass. */
  maxImageBytes: 4 * MIB,
  /** Width times height of one image, as its header declares it; exactly this many pass. */
  maxPixels: 16_000_000,
  /** Decoded bytes of all the images of a request; exactly this many pass. */
  maxTotalBytes: 8 * MIB,
} as const;

export interface DecisionImage {
  mime: ImageMime;
  /** Decoded size in bytes. */
  bytes: number;
  width: number;
  height: number;
  /** the data URL as given, to forward */
  dataUrl: string;
}

/**
 * Validates `images` (unknown input) for a model that takes at most
 * `maxImages`; returns the images in request order, or throws GatewayError:
 * `invalid_parameter` for a wrong shape or too many images,
 * `invalid_image` for anything but a base64 PNG, JPEG or WebP data URL
 * whose bytes are what it says, `image_too_large` for a limit of
 * DECISION_IMAGE_LIMITS passed. An absent field (`undefined`) is no images.
 */
export function readDecisionImages(images: unknown, maxImages: number): DecisionImage[] {
  if (images === undefined) return [];
  if (!Array.isArray(images)) throw invalidParameter('images', `must be an array of image data URLs; got ${kindOf(images)}.`);
  if (images.length > maxImages) {
    const takes = maxImages === 0 ? 'takes no images' : `takes at most ${maxImages}`;
    throw invalidParameter('images', `holds ${images.length} images; this model ${takes}.`, { count: images.length, limit: maxImages });
  }
  const read: DecisionImage[] = [];
  let totalBytes = 0;
  for (const [index, item] of (images as unknown[]).entries()) {
    const ref = imageRef(item, index);
    const payload = measure(ref);
    totalBytes += payload.bytes;
    if (totalBytes > DECISION_IMAGE_LIMITS.maxTotalBytes) throw totalTooLarge(ref, totalBytes);
    read.push(decode(ref, payload));
  }
  return read;
}

/** One image of the request: where it is (for `param` and messages) and its data URL. */
interface ImageRef {
  index: number;
  /** `images[2]` for a string item, `images[2].url` for an object item. */
  param: string;
  dataUrl: string;
}

/** A data URL taken apart and sized, not yet decoded. */
interface MeasuredPayload {
  mime: ImageMime;
  base64: string;
  bytes: number;
}

/** The data URL of an item, which is a string or an object whose only field is a string `url`. */
function imageRef(item: unknown, index: number): ImageRef {
  const param = `images[${index}]`;
  if (typeof item === 'string') return { index, param, dataUrl: item };
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw invalidParameter(param, `must be a data URL string or an object {"url": "<data URL>"}; got ${kindOf(item)}.`, { index });
  }
  const unknownField = Object.keys(item).find((key) => key !== 'url');
  if (unknownField !== undefined) throw invalidParameter(param, `has the unknown field ${quote(unknownField)}; an image object takes only "url".`, { index });
  const url: unknown = (item as { url?: unknown }).url;
  if (typeof url !== 'string') throw invalidParameter(`${param}.url`, `must be a data URL string; got ${kindOf(url)}.`, { index });
  return { index, param: `${param}.url`, dataUrl: url };
}

/** The type, payload and decoded size of an image's data URL, refusing it when that size is over the per-image limit. */
function measure(ref: ImageRef): MeasuredPayload {
  const { mime, base64 } = splitDataUrl(ref);
  const bytes = decodedLength(ref, base64);
  if (bytes > DECISION_IMAGE_LIMITS.maxImageBytes) throw imageTooLarge(ref, bytes);
  checkBase64Alphabet(ref, base64);
  return { mime, base64, bytes };
}

/** Decodes the payload once, then reads from its header the type its bytes prove and the pixel size it declares. */
function decode(ref: ImageRef, { mime, base64, bytes }: MeasuredPayload): DecisionImage {
  const buffer = Buffer.from(base64, 'base64');
  const proven = imageMimeOf(buffer);
  if (proven !== mime) {
    const but = proven ? `its bytes are a ${FORMAT_NAMES[proven]} image` : `its bytes do not start with the ${FORMAT_NAMES[mime]} signature`;
    throw invalidImage(ref, 'type_mismatch', `says ${mime} but ${but}`);
  }
  const { width, height } = readHeader(ref, buffer, mime);
  if (width * height > DECISION_IMAGE_LIMITS.maxPixels) throw tooManyPixels(ref, width, height);
  return { mime, bytes, width, height, dataUrl: ref.dataUrl };
}

function readHeader(ref: ImageRef, buffer: Buffer, mime: ImageMime): { width: number; height: number } {
  try {
    return readImageDimensions(buffer, mime);
  } catch (err) {
    if (err instanceof UnreadableImageHeader) throw invalidImage(ref, 'unreadable_header', `is not a readable ${FORMAT_NAMES[mime]} image: ${err.message}`);
    throw err;
  }
}

// --- data URLs (RFC 2397) --------------------------------------------------

const ACCEPTED_MIMES: ReadonlySet<string> = new Set<ImageMime>(['image/png', 'image/jpeg', 'image/webp']);
const REMOTE_URL = /^https?:\/\//i;
const DATA_URL = /^data:/i;
/** The head `data:<type>[;param=value]*;base64,` is read within this many characters, so a long payload is never matched by a pattern. */
const LONGEST_HEAD = 256;
const MEDIA_TYPE = /^data:([^;,]{0,100})/i;
const BASE64_HEAD = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,$/i;

/**
 * The declared type and the base64 payload of an image's data URL. Each
 * way of not being one has its own message: a remote URL (the gateway does
 * not download images), a file id, any other string, audio or video, an
 * image type other than the three, a data URL that is not base64.
 */
function splitDataUrl(ref: ImageRef): { mime: ImageMime; base64: string } {
  const url = ref.dataUrl;
  if (REMOTE_URL.test(url)) throw invalidImage(ref, 'remote_url', 'is a remote URL; the gateway does not download images for /v1/decisions');
  if (url.startsWith('file-')) throw invalidImage(ref, 'file_id', `is a file id (${quote(url)}); /v1/decisions does not read uploaded files`);
  if (!DATA_URL.test(url)) throw invalidImage(ref, 'not_data_url', 'is not a data URL');
  const head = url.slice(0, LONGEST_HEAD);
  const mediaType = (MEDIA_TYPE.exec(head)?.[1] ?? '').trim().toLowerCase();
  if (mediaType.startsWith('audio/')) throw invalidImage(ref, 'audio', `is audio (${quote(mediaType)}); /v1/decisions takes images only`);
  if (mediaType.startsWith('video/')) throw invalidImage(ref, 'video', `is video (${quote(mediaType)}); /v1/decisions takes images only`);
  if (!ACCEPTED_MIMES.has(mediaType)) {
    throw invalidImage(ref, 'unsupported_type', mediaType ? `is of type ${quote(mediaType)}, which is not accepted` : 'is a data URL with no media type');
  }
  const comma = head.indexOf(',');
  if (comma < 0 || !BASE64_HEAD.test(head.slice(0, comma + 1))) throw invalidImage(ref, 'not_base64', 'is not base64-encoded (its head must be data:<type>;base64,)');
  return { mime: mediaType as ImageMime, base64: url.slice(comma + 1) };
}

// --- base64 (RFC 4648, section 4) -------------------------------------------

/**
 * The number of bytes `base64` decodes to, from its length alone: every 4
 * characters carry 3 bytes, less one per `=` of padding at the end. Only
 * the padded form is taken, so a length that is not a multiple of 4 is
 * malformed.
 */
function decodedLength(ref: ImageRef, base64: string): number {
  if (base64.length === 0) throw invalidImage(ref, 'malformed_base64', 'has an empty base64 payload');
  if (base64.length % 4 !== 0) {
    throw invalidImage(ref, 'malformed_base64', `has a base64 payload of ${base64.length} characters, not a multiple of 4 (pad it with =)`);
  }
  return (base64.length / 4) * 3 - paddingOf(base64);
}

function paddingOf(base64: string): number {
  if (base64.endsWith('==')) return 2;
  return base64.endsWith('=') ? 1 : 0;
}

/** A character that is not of the base64 alphabet; `=` is only padding, checked apart. */
const NOT_BASE64 = /[^A-Za-z0-9+/]/;

/**
 * Refuses a payload with a character outside the alphabet before the
 * padding (whitespace, the base64url `-` and `_`, an `=` inside). Buffer's
 * decoder would skip such characters silently and decode something else
 * than the client sent. The scan is linear: the class cannot backtrack.
 */
function checkBase64Alphabet(ref: ImageRef, base64: string): void {
  const at = base64.slice(0, base64.length - paddingOf(base64)).search(NOT_BASE64);
  if (at >= 0) {
    throw invalidImage(ref, 'malformed_base64', `has a character that is not base64 at offset ${at} of its payload (${describeChar(base64[at])})`);
  }
}

// --- errors -------------------------------------------------------------------

const ACCEPTED = 'Send each image inline as a base64 data URL of a PNG, JPEG or WebP image: data:image/png;base64,..., data:image/jpeg;base64,... or data:image/webp;base64,...';

type InvalidImageReason =
  | 'remote_url'
  | 'file_id'
  | 'not_data_url'
  | 'audio'
  | 'video'
  | 'unsupported_type'
  | 'not_base64'
  | 'malformed_base64'
  | 'type_mismatch'
  | 'unreadable_header';

function invalidImage(ref: ImageRef, reason: InvalidImageReason, problem: string): GatewayError {
  return new GatewayError('invalid_image', `${ref.param} ${problem}. ${ACCEPTED}.`, { param: ref.param, details: { index: ref.index, reason } });
}

function imageTooLarge(ref: ImageRef, bytes: number): GatewayError {
  const limit = DECISION_IMAGE_LIMITS.maxImageBytes;
  return new GatewayError('image_too_large', `${ref.param} is ${bytes} bytes decoded; the limit is ${limit} bytes (${limit / MIB} MiB) per image.`, {
    param: ref.param,
    details: { index: ref.index, bytes, limit },
  });
}

function tooManyPixels(ref: ImageRef, width: number, height: number): GatewayError {
  const limit = DECISION_IMAGE_LIMITS.maxPixels;
  const pixels = width * height;
  return new GatewayError('image_too_large', `${ref.param} is ${width}x${height} = ${pixels} pixels; the limit is ${limit} pixels per image.`, {
    param: ref.param,
    details: { index: ref.index, width, height, pixels, limit },
  });
}

function totalTooLarge(ref: ImageRef, bytes: number): GatewayError {
  const limit = DECISION_IMAGE_LIMITS.maxTotalBytes;
  return new GatewayError(
    'image_too_large',
    `The images up to ${ref.param} are ${bytes} bytes decoded in all; the limit is ${limit} bytes (${limit / MIB} MiB) for all the images of a request.`,
    { param: 'images', details: { index: ref.index, bytes, limit } },
  );
}

function invalidParameter(param: string, problem: string, details?: Record<string, unknown>): GatewayError {
  return new GatewayError('invalid_parameter', `"${param}" ${problem}`, { param, ...(details ? { details } : {}) });
}

/** A value's kind for a message: `null`, `an array`, `a number`, ... */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A client's string quoted for a message: JSON-escaped and cut to 64 characters, so no payload is ever echoed. */
function quote(text: string): string {
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}...` : text);
}

function describeChar(char: string): string {
  if (/\s/.test(char)) return 'whitespace';
  return char === '=' ? '"=" before the end' : quote(char);
}
