import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { invalidParameter, sendOpenAIError } from '../openai/errors';
import { openaiHeaders } from '../openai/respond';
import type { Exchange } from '../routing';
import type { VideoTaskStore } from '../video-task';
import { CONTENT_VARIANTS, fakeVideoFile, isContentVariant } from './fake-video-file';
import { contentNotAvailable, videoNotFound } from './video-errors';
import { type SoraVideoTask, soraVideoState } from './video-object';

/**
 * `GET /v1/videos/{id}/content[?variant=video|thumbnail|spritesheet]`: the
 * bytes of a completed video, streamed with an exact content-length.
 * @see https://platform.openai.com/docs/api-reference/videos/content
 */
export async function sendVideoContent(tasks: VideoTaskStore<SoraVideoTask>, exchange: Exchange): Promise<void> {
  const { res, params, query, signal } = exchange;
  const id = decodeURIComponent(params[0] ?? '');
  const task = tasks.get(id);
  if (!task) return sendOpenAIError(res, videoNotFound(id));
  const variant = query.get('variant') ?? 'video';
  if (!isContentVariant(variant)) {
    const supported = CONTENT_VARIANTS.map((v) => `'${v}'`).join(', ');
    return sendOpenAIError(res, invalidParameter('variant', `Invalid value: '${variant}'. Supported values are: ${supported}.`));
  }
  const state = soraVideoState(task);
  if (state.status !== 'completed' || !state.contentAvailable) return sendOpenAIError(res, contentNotAvailable(id, state.status));

  const { model, prompt, seconds, size } = task.request;
  const file = fakeVideoFile(variant, Number(seconds), size, `${model}\n${prompt}\n${seconds}\n${size}\n${variant}`);
  res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.length, ...openaiHeaders() });
  try {
    await pipeline(Readable.from(file.chunks()), res);
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}
