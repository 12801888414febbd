import type { VideoSubmission } from '../video-adapter';

/**
 * The JSON body of `POST /videos/generations`. xAI takes the start image as
 * a URL, and a `data:` URL is one, so uploaded bytes travel inline.
 * @see https://docs.x.ai/docs/guides/video-generations
 */
export function toXaiVideoBody(submission: VideoSubmission, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model: upstreamModel, prompt: submission.prompt, duration: submission.durationSeconds };
  if (submission.aspectRatio !== undefined) body.aspect_ratio = submission.aspectRatio;
  if (submission.resolution !== undefined) body.resolution = submission.resolution;
  const imageUrl = submission.image?.url ?? (submission.image?.file && dataUrl(submission.image.file));
  if (imageUrl) body.image = { url: imageUrl };
  return body;
}

function dataUrl(file: { contentType: string; data: Buffer }): string {
  return `data:${file.contentType};base64,${file.data.toString('base64')}`;
}
