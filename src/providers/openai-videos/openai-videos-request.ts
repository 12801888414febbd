import type { VideoSubmission } from '../video-adapter';
import { encodeMultipartForm } from './multipart-form';

/**
 * The create request, as multipart/form-data as the current openai-node SDK
 * sends it. `seconds` is a string ("4", "8" or "12"); the image is uploaded
 * as the `input_reference` file.
 * @see https://platform.openai.com/docs/api-reference/videos/create
 */
export function toOpenAIVideoForm(submission: VideoSubmission, upstreamModel: string): { contentType: string; body: Buffer } {
  const fields: Record<string, string> = { model: upstreamModel, prompt: submission.prompt, seconds: String(submission.durationSeconds) };
  if (submission.size !== undefined) fields.size = submission.size;
  const file = submission.image?.file;
  return encodeMultipartForm(fields, file ? { input_reference: file } : {});
}
