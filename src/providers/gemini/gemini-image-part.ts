import { UnsupportedParameterError } from '../unsupported-parameter';
import { type ImageDownloadLimits, downloadImage, ImageDownloadError, imageMediaType } from './download-image';
import type { GeminiPart } from './gemini-api';

/**
 * An OpenAI `image_url` as a Gemini `inlineData` part: a data URL is
 * unpacked, an https URL downloaded (see download-image.ts). A failed
 * download is the client's to fix, so it names the field and the reason.
 * @see https://ai.google.dev/api/caching#Blob
 */
export async function toGeminiImagePart(url: string, param: string, limits: ImageDownloadLimits, signal?: AbortSignal): Promise<GeminiPart> {
  const dataUrl = /^data:([^;,]+);base64,(.*)$/is.exec(url);
  if (dataUrl) return { inlineData: { mimeType: imageMediaType(dataUrl[1]), data: dataUrl[2]!.replace(/\s+/g, '') } };
  try {
    const image = await downloadImage(url, limits, signal);
    return { inlineData: { mimeType: image.mimeType, data: image.data.toString('base64') } };
  } catch (error) {
    if (error instanceof ImageDownloadError) throw new UnsupportedParameterError(param, `"${param}" could not be used: ${error.message}.`);
    throw error;
  }
}
