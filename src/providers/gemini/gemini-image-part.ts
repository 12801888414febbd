import { GatewayError } from '../../errors/gateway-error';
import { UnsupportedParameterError } from '../unsupported-parameter';
import { type ImageDownloadLimits, downloadImage, ImageBudgetExceededError, ImageByteBudget, ImageDownloadError, imageMediaType } from './download-image';
import type { GeminiPart } from './gemini-api';
import { parseDataUrl } from '../data-url';

/**
 * OpenAI `image_url`s as Gemini `inlineData` parts: a data URL is unpacked
 * at once, an https URL downloaded (see download-image.ts). The downloads
 * of one request run at most `maxConcurrent` at a time and share one byte
 * budget, `maxTotalBytes`; the first failure stops the others. A failed
 * download is the client's to fix, so it names the field and the reason; a
 * spent budget is the request as a whole being too large (413).
 * @see https://ai.google.dev/api/caching#Blob
 */
export class GeminiImageParts {
  private readonly pending: Array<{ url: string; param: string; part: GeminiPart }> = [];

  constructor(
    private readonly limits: ImageDownloadLimits,
    private readonly signal?: AbortSignal,
  ) {}

  /** The part for an image: filled in at once for a data URL, by `downloadAll` for a URL to fetch. */
  part(url: string, param: string): GeminiPart {
    const dataUrl = parseDataUrl(url);
    if (dataUrl) return { inlineData: { mimeType: imageMediaType(dataUrl.mediaType), data: dataUrl.base64 } };
    const part: GeminiPart = {};
    this.pending.push({ url, param, part });
    return part;
  }

  async downloadAll(): Promise<void> {
    if (this.pending.length === 0) return;
    const stop = new AbortController();
    const signal = this.signal ? AbortSignal.any([this.signal, stop.signal]) : stop.signal;
    const budget = new ImageByteBudget(this.limits.maxTotalBytes);
    let next = 0;
    const worker = async () => {
      while (next < this.pending.length && !signal.aborted) {
        const image = this.pending[next++]!;
        image.part.inlineData = await this.download(image.url, image.param, signal, budget);
      }
    };
    const workers = Array.from({ length: Math.min(Math.max(1, this.limits.maxConcurrent), this.pending.length) }, worker);
    try {
      await Promise.all(workers);
      // Workers stop taking images once the client is gone: what is left unfilled must not go upstream.
      this.signal?.throwIfAborted();
    } catch (error) {
      stop.abort();
      throw error;
    }
  }

  private async download(url: string, param: string, signal: AbortSignal, budget: ImageByteBudget): Promise<GeminiPart['inlineData']> {
    try {
      const image = await downloadImage(url, this.limits, signal, budget);
      return { mimeType: image.mimeType, data: image.base64 };
    } catch (error) {
      if (error instanceof ImageDownloadError) throw new UnsupportedParameterError(param, `"${param}" could not be used: ${error.message}.`);
      if (error instanceof ImageBudgetExceededError) {
        throw new GatewayError(
          'request_body_too_large',
          `The images this request gives by URL add up to more than ${error.maxTotalBytes / (1024 * 1024)} MB downloaded. Send fewer or smaller images.`,
          { details: { max_image_bytes_per_request: error.maxTotalBytes } },
        );
      }
      throw error;
    }
  }
}
