import { type OpenAIError, invalidParameter, missingModel, missingParameter, modelNotFound } from '../openai/errors';

/**
 * The body of `POST /v1/videos/generations`, checked as xAI documents it.
 * xAI's error envelope on 4xx is not confirmed; the
 * simulator assumes the OpenAI one, as the Vercel AI SDK's xAI provider reads.
 * @see https://docs.x.ai/docs/guides/video-generations
 */
export interface XaiGenerationRequest {
  model: string;
  prompt: string;
  duration: number;
  resolution: string;
}

export const XAI_VIDEO_MODEL = 'grok-imagine-video';
const ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3'];
const RESOLUTIONS = ['480p', '720p'];
const MIN_DURATION = 1;
const MAX_DURATION = 15;
/** xAI does not state its default duration; this is the gateway specification's. */
const DEFAULT_DURATION = 6;

type Validated = { ok: true; request: XaiGenerationRequest } | { ok: false; error: OpenAIError };

export function validateGenerationRequest(body: object): Validated {
  const fields: { model?: unknown; prompt?: unknown; duration?: unknown; resolution?: unknown; aspect_ratio?: unknown; image?: unknown; reference_images?: unknown } = body;
  if (typeof fields.model !== 'string' || fields.model === '') return { ok: false, error: missingModel() };
  if (fields.model !== XAI_VIDEO_MODEL) return { ok: false, error: modelNotFound(fields.model) };
  if (typeof fields.prompt !== 'string' || fields.prompt.trim() === '') return { ok: false, error: missingParameter('prompt') };
  const duration = fields.duration ?? DEFAULT_DURATION;
  if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < MIN_DURATION || duration > MAX_DURATION) {
    return invalid('duration', `Invalid duration: expected an integer from ${MIN_DURATION} to ${MAX_DURATION} seconds.`);
  }
  const resolution = fields.resolution ?? '480p';
  if (typeof resolution !== 'string' || !RESOLUTIONS.includes(resolution)) return invalid('resolution', `Invalid resolution: expected one of ${RESOLUTIONS.join(', ')}.`);
  if (fields.aspect_ratio !== undefined && !(typeof fields.aspect_ratio === 'string' && ASPECT_RATIOS.includes(fields.aspect_ratio))) {
    return invalid('aspect_ratio', `Invalid aspect_ratio: expected one of ${ASPECT_RATIOS.join(', ')}.`);
  }
  if (fields.image !== undefined && fields.reference_images !== undefined) {
    return invalid('reference_images', 'image and reference_images cannot be used together.');
  }
  if (fields.image !== undefined && !isImageReference(fields.image)) return invalid('image', 'Invalid image: expected an object with a url.');
  if (fields.reference_images !== undefined && !(Array.isArray(fields.reference_images) && fields.reference_images.every(isImageReference))) {
    return invalid('reference_images', 'Invalid reference_images: expected a list of objects with a url.');
  }
  return { ok: true, request: { model: fields.model, prompt: fields.prompt, duration, resolution } };
}

function isImageReference(value: unknown): value is { url: string } {
  const url = (value as { url?: unknown } | null)?.url;
  return typeof value === 'object' && typeof url === 'string' && url !== '';
}

function invalid(param: string, message: string): Validated {
  return { ok: false, error: invalidParameter(param, message) };
}
