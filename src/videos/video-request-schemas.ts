import { z } from 'zod';
import type { VideoCapabilities } from '../config/gateway-config-schema';
import { isBase64DataUrl, isHttpsUrl } from '../providers/data-url';

/**
 * Submission bodies, built from each model's catalog capabilities so that the
 * ranges live in the catalog. Objects are strict: an unknown field is a 400
 * that names it, not a silently ignored typo.
 */

// Stored (as JSON) with the task: PostgreSQL cannot store the NUL character, so it is refused here.
const prompt = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(10_000)
  .refine((text) => !text.includes('\u0000'), 'must not contain the NUL character');

/**
 * Start-frame image for the xAI-style API: an https URL or an inline data URL
 * (PNG, JPEG or WebP). Whether a URL is reachable and a real image is the
 * upstream's to judge.
 */
export const startImageUrl = z
  .string()
  .max(15 * 1024 * 1024)
  .refine((url) => isHttpsUrl(url, 2048) || isBase64DataUrl(url, (type) => /^image\/(png|jpe?g|webp)$/.test(type)), {
    message: 'must be an https:// URL or a data:image/(png|jpeg|webp);base64 URL',
  });

/** Schemas depend only on a model's capabilities, which live as long as the catalog: built once per model. */
function cachedPerCapabilities<S>(build: (caps: VideoCapabilities) => S): (caps: VideoCapabilities) => S {
  const cache = new WeakMap<VideoCapabilities, S>();
  return (caps) => {
    let schema = cache.get(caps);
    if (!schema) cache.set(caps, (schema = build(caps)));
    return schema;
  };
}

export const xaiSubmissionSchema = cachedPerCapabilities(buildXaiSubmissionSchema);
export const openAISubmissionSchema = cachedPerCapabilities(buildOpenAISubmissionSchema);

function buildXaiSubmissionSchema(caps: VideoCapabilities) {
  const range = Array.isArray(caps.durations) ? { min: Math.min(...caps.durations), max: Math.max(...caps.durations) } : caps.durations;
  return z.strictObject({
    model: z.string(),
    prompt,
    duration: z.number().int('must be a whole number of seconds').min(range.min).max(range.max).default(caps.default_duration),
    resolution: z.enum(caps.resolutions as [string, ...string[]]).default(caps.resolutions[0]),
    aspect_ratio: z.enum(caps.aspect_ratios as [string, ...string[]]).default(caps.default_aspect_ratio ?? caps.aspect_ratios[0]),
    image: z.strictObject({ url: startImageUrl }).optional(),
  });
}

/** OpenAI Videos: `seconds` is a string on the wire ("4"); numbers are accepted too, as the SDK's types allow both. */
function buildOpenAISubmissionSchema(caps: VideoCapabilities) {
  const allowed = (Array.isArray(caps.durations) ? caps.durations : rangeList(caps.durations)).map(String);
  return z.strictObject({
    model: z.string(),
    prompt,
    seconds: z
      .union([z.string(), z.number()])
      .transform(String)
      .pipe(z.enum(allowed as [string, ...string[]], { message: `must be one of ${allowed.map((s) => `"${s}"`).join(', ')}` }))
      .default(String(caps.default_duration)),
    size: z.enum(caps.resolutions as [string, ...string[]], { message: `must be one of ${caps.resolutions.join(', ')} for this model` }).default(caps.resolutions[0]),
  });
}

export const remixSchema = z.strictObject({ prompt });

function rangeList(range: { min: number; max: number }): number[] {
  return Array.from({ length: range.max - range.min + 1 }, (_, i) => range.min + i);
}
