import { Deadline } from '../../deadlines/deadline';
import { sendUpstream } from '../http-client';
import { ForbiddenAddressError, isForbiddenLiteralHost } from '../public-address';

/**
 * Fetches an image a client gave by URL. The Gemini API takes images inline
 * (or as uploaded files), never by arbitrary URL, so the gateway downloads
 * them itself, within the limits the Gemini API sets for inline data.
 * Redirects are followed by hand so that every hop passes the scheme check.
 * @see https://ai.google.dev/gemini-api/docs/image-understanding#inline-image
 */
export interface ImageDownloadLimits {
  /** URL schemes fetched, for the first request and every redirect: `https:` only, except in tests against a loopback server. */
  allowedProtocols: readonly string[];
  /** For one image. */
  maxBytes: number;
  /** For all the images one request gives by URL together: past it, the request is refused as too large. */
  maxTotalBytes: number;
  /** Downloads of one request in flight at once. */
  maxConcurrent: number;
  /** For the whole download, redirects included. */
  timeoutMs: number;
  maxRedirects: number;
  /** Only in tests against a loopback server: otherwise private and reserved addresses are refused (no SSRF). */
  allowPrivateAddresses?: boolean;
}

export const GEMINI_IMAGE_DOWNLOAD_LIMITS: ImageDownloadLimits = {
  allowedProtocols: ['https:'],
  maxBytes: 20 * 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
  maxConcurrent: 4,
  timeoutMs: 10_000,
  maxRedirects: 3,
};

/** The image types Gemini accepts inline (HEIC/HEIF are left out: clients of an OpenAI-shaped API do not send them). */
export const GEMINI_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export interface DownloadedImage {
  mimeType: string;
  /** The image, base64-encoded as it arrived: the bytes themselves are never held whole. */
  base64: string;
  bytes: number;
}

/** Why an image could not be used; the message is a reason a client can act on. */
export class ImageDownloadError extends Error {
  override readonly name = 'ImageDownloadError';
}

/** The images of one request went past their total byte budget: the request as a whole is too large, not one field wrong. */
export class ImageBudgetExceededError extends Error {
  override readonly name = 'ImageBudgetExceededError';

  constructor(readonly maxTotalBytes: number) {
    super(`the images add up to more than ${maxTotalBytes / (1024 * 1024)} MB`);
  }
}

/** The bytes all the downloads of one request may still take. Bytes taken are never given back: any failure ends the request. */
export class ImageByteBudget {
  private taken = 0;

  constructor(readonly maxTotalBytes: number) {}

  get remaining(): number {
    return this.maxTotalBytes - this.taken;
  }

  take(bytes: number): void {
    if (bytes > this.remaining) throw new ImageBudgetExceededError(this.maxTotalBytes);
    this.taken += bytes;
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Downloads one image, taking its bytes from the request's budget when one
 * is given; an abort by the caller and a spent budget propagate as
 * themselves, every other failure as an ImageDownloadError.
 */
export async function downloadImage(url: string, limits: ImageDownloadLimits, signal?: AbortSignal, budget?: ImageByteBudget): Promise<DownloadedImage> {
  const deadline = new Deadline(limits.timeoutMs, [signal]);
  try {
    return await fetchFollowingRedirects(parseUrl(url), limits, deadline.signal, budget);
  } catch (error) {
    if (signal?.aborted || error instanceof ImageDownloadError || error instanceof ImageBudgetExceededError) throw error;
    if (deadline.expired) throw new ImageDownloadError(`the download took longer than ${limits.timeoutMs / 1000} s`);
    throw new ImageDownloadError(`the download failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    deadline.clear();
  }
}

async function fetchFollowingRedirects(start: URL, limits: ImageDownloadLimits, signal: AbortSignal, budget?: ImageByteBudget): Promise<DownloadedImage> {
  let url = start;
  for (let redirects = 0; ; redirects++) {
    if (!limits.allowedProtocols.includes(url.protocol)) {
      throw new ImageDownloadError(`only ${limits.allowedProtocols.join(', ')} URLs are fetched, not ${url.protocol}`);
    }
    if (!limits.allowPrivateAddresses && isForbiddenLiteralHost(url)) throw new ImageDownloadError('private and reserved addresses are not fetched');
    const res = await sendUpstream({
      method: 'GET',
      url: url.href,
      headers: { accept: GEMINI_IMAGE_TYPES.join(', ') },
      signal,
      timeoutMs: limits.timeoutMs,
      publicOnly: !limits.allowPrivateAddresses,
    }).catch((err) => {
      throw err instanceof ForbiddenAddressError ? new ImageDownloadError('private and reserved addresses are not fetched') : err;
    });
    const location = headerValue(res.headers.location);
    if (REDIRECT_STATUSES.has(res.status) && location) {
      res.body.resume();
      if (redirects >= limits.maxRedirects) throw new ImageDownloadError(`more than ${limits.maxRedirects} redirects`);
      url = parseUrl(location, url);
      continue;
    }
    if (res.status !== 200) {
      res.body.resume();
      throw new ImageDownloadError(`the server answered HTTP ${res.status}`);
    }
    const mimeType = imageMediaType(headerValue(res.headers['content-type']));
    if (!GEMINI_IMAGE_TYPES.includes(mimeType)) {
      res.body.resume();
      throw new ImageDownloadError(`the content type is ${mimeType || 'missing'}, not one of ${GEMINI_IMAGE_TYPES.join(', ')}`);
    }
    const declared = Number(headerValue(res.headers['content-length']));
    if (declared > limits.maxBytes) {
      res.body.destroy();
      throw tooLarge(limits.maxBytes);
    }
    if (budget && declared > budget.remaining) {
      res.body.destroy();
      throw new ImageBudgetExceededError(budget.maxTotalBytes);
    }
    return { mimeType, ...(await readAsBase64(res.body, limits.maxBytes, budget)) };
  }
}

/**
 * Reads a body straight into base64, chunk by chunk (a chunk's last one or
 * two bytes wait for the next, so that the pieces join into the encoding of
 * the whole): the raw bytes are never gathered, and the pieces are joined
 * by string concatenation, which V8 does without copying. Leaving the loop
 * early destroys the body, so a download stops at the first cap it passes.
 */
async function readAsBase64(body: AsyncIterable<Buffer>, maxBytes: number, budget?: ImageByteBudget): Promise<{ base64: string; bytes: number }> {
  let base64 = '';
  let bytes = 0;
  let carry: Buffer | undefined;
  for await (let chunk of body) {
    bytes += chunk.length;
    if (bytes > maxBytes) throw tooLarge(maxBytes);
    budget?.take(chunk.length);
    if (carry) {
      const group = Buffer.concat([carry, chunk.subarray(0, 3 - carry.length)]);
      chunk = chunk.subarray(3 - carry.length);
      carry = undefined;
      if (group.length < 3) {
        carry = group;
        continue;
      }
      base64 += group.toString('base64');
    }
    const whole = chunk.length - (chunk.length % 3);
    if (whole > 0) base64 += chunk.toString('base64', 0, whole);
    if (whole < chunk.length) carry = Buffer.from(chunk.subarray(whole));
  }
  if (carry) base64 += carry.toString('base64');
  return { base64, bytes };
}

/** The media type without parameters, lower-cased; `image/jpg`, a common mislabel, read as `image/jpeg`. */
export function imageMediaType(contentType: string | undefined): string {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaType === 'image/jpg' ? 'image/jpeg' : mediaType;
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    throw new ImageDownloadError('it is not a valid URL');
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function tooLarge(maxBytes: number): ImageDownloadError {
  return new ImageDownloadError(`the image is larger than ${maxBytes / (1024 * 1024)} MB`);
}
