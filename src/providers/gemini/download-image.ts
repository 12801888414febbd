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
  maxBytes: number;
  /** For the whole download, redirects included. */
  timeoutMs: number;
  maxRedirects: number;
  /** Only in tests against a loopback server: otherwise private and reserved addresses are refused (no SSRF). */
  allowPrivateAddresses?: boolean;
}

export const GEMINI_IMAGE_DOWNLOAD_LIMITS: ImageDownloadLimits = {
  allowedProtocols: ['https:'],
  maxBytes: 20 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
};

/** The image types Gemini accepts inline (HEIC/HEIF are left out: clients of an OpenAI-shaped API do not send them). */
export const GEMINI_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export interface DownloadedImage {
  mimeType: string;
  data: Buffer;
}

/** Why an image could not be used; the message is a reason a client can act on. */
export class ImageDownloadError extends Error {
  override readonly name = 'ImageDownloadError';
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Downloads one image; a client abort propagates as itself, every other failure as an ImageDownloadError. */
export async function downloadImage(url: string, limits: ImageDownloadLimits, signal?: AbortSignal): Promise<DownloadedImage> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    return await fetchFollowingRedirects(parseUrl(url), limits, combined);
  } catch (error) {
    if (signal?.aborted || error instanceof ImageDownloadError) throw error;
    if (timeout.aborted) throw new ImageDownloadError(`the download took longer than ${limits.timeoutMs / 1000} s`);
    throw new ImageDownloadError(`the download failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function fetchFollowingRedirects(start: URL, limits: ImageDownloadLimits, signal: AbortSignal): Promise<DownloadedImage> {
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
    if (Number(headerValue(res.headers['content-length'])) > limits.maxBytes) {
      res.body.resume();
      throw tooLarge(limits.maxBytes);
    }
    return { mimeType, data: await readCapped(res.body, limits.maxBytes) };
  }
}

/** Leaving the loop early destroys the body, so an oversized image stops downloading at the cap. */
async function readCapped(body: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
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
