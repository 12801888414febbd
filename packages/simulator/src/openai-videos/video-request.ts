import { type OpenAIError, invalidParameter, missingParameter } from '../openai/errors';

/**
 * The fields of `POST /v1/videos`, checked as the Videos API does: `seconds`
 * is a string, and each model has its own sizes (sora-2 only the two 720p
 * ones). Whether `input_reference` must match `size` is not confirmed, so
 * it is not checked.
 * @see https://platform.openai.com/docs/api-reference/videos/create
 */
export interface SoraVideoRequest {
  model: string;
  prompt: string;
  seconds: string;
  size: string;
}

const SECONDS = ['4', '8', '12'];
const SIZES_BY_MODEL: { [model: string]: string[] } = {
  'sora-2': ['720x1280', '1280x720'],
  'sora-2-pro': ['720x1280', '1280x720', '1024x1792', '1792x1024'],
};
/** Dated snapshots such as `sora-2-2025-10-06` take their base model's sizes. */
const MODEL_NAME = /^(sora-2(?:-pro)?)(?:-\d{4}-\d{2}-\d{2})?$/;
const INPUT_REFERENCE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

type Validated = { ok: true; request: SoraVideoRequest } | { ok: false; error: OpenAIError };

export function validateVideoRequest(body: object): Validated {
  const fields: { model?: unknown; prompt?: unknown; seconds?: unknown; size?: unknown; input_reference?: unknown } = body;
  const prompt = validatePrompt(fields.prompt);
  if (!prompt.ok) return prompt;
  const model = fields.model ?? 'sora-2';
  const baseModel = typeof model === 'string' ? MODEL_NAME.exec(model)?.[1] : undefined;
  if (typeof model !== 'string' || !baseModel) return invalid('model', `Invalid value: '${String(model)}'. Supported values are: 'sora-2' and 'sora-2-pro'.`);
  const seconds = fields.seconds ?? '4';
  if (typeof seconds !== 'string') return invalid('seconds', `Invalid type for 'seconds': expected one of '4', '8', or '12', but got ${typeName(seconds)} instead.`);
  if (!SECONDS.includes(seconds)) return invalid('seconds', `Invalid value: '${seconds}'. Supported values are: '4', '8', and '12'.`);
  const size = fields.size ?? '720x1280';
  const sizes = SIZES_BY_MODEL[baseModel] ?? [];
  if (typeof size !== 'string' || !sizes.includes(size)) {
    return invalid('size', `Invalid value: '${String(size)}'. Supported values for ${model} are: ${sizes.map((s) => `'${s}'`).join(', ')}.`);
  }
  if (fields.input_reference !== undefined && !isInputReference(fields.input_reference)) {
    return invalid('input_reference', `Invalid input_reference: expected an image file (${INPUT_REFERENCE_TYPES.join(', ')}), an image_url or a file_id.`);
  }
  return { ok: true, request: { model, prompt: prompt.prompt, seconds, size } };
}

/** A remix changes only the prompt. */
export function validatePrompt(prompt: unknown): { ok: true; prompt: string } | { ok: false; error: OpenAIError } {
  if (typeof prompt !== 'string' || prompt.trim() === '') return { ok: false, error: missingParameter('prompt') };
  return { ok: true, prompt };
}

/** An uploaded file (as the form reader summarises it), or the newer SDKs' `{image_url}` / `{file_id}`. */
function isInputReference(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { content_type: contentType, image_url: imageUrl, file_id: fileId } = value as { content_type?: unknown; image_url?: unknown; file_id?: unknown };
  if (typeof contentType === 'string') return INPUT_REFERENCE_TYPES.includes(contentType);
  return typeof imageUrl === 'string' || typeof fileId === 'string';
}

function typeName(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return value === null ? 'null' : `a ${typeof value}`;
}

function invalid(param: string, message: string): Validated {
  return { ok: false, error: invalidParameter(param, message) };
}
