import type { SimulatorContext } from '../context';
import { requireBearerKey } from '../openai/auth';
import { sendOpenAIError, simulatedFailure } from '../openai/errors';
import { sendOpenAIJson } from '../openai/respond';
import type { Exchange, Route } from '../routing';
import { VideoTaskStore, takePollFailure } from '../video-task';
import { createVideo, remixVideo } from './create-video';
import { readJsonOrFormBody } from './multipart-body';
import { videoNotFound } from './video-errors';
import { sendVideoContent } from './video-content';
import { type SoraVideoTask, videoObject } from './video-object';

/**
 * The OpenAI Videos API (Sora 2) under `/v1/videos`, behind a bearer key.
 * Retrieve claims only `video_…` ids: xAI polls share the path and take the rest.
 * @see https://platform.openai.com/docs/api-reference/videos
 */
export function openaiVideoRoutes(context: SimulatorContext): Route[] {
  const tasks = new VideoTaskStore<SoraVideoTask>();
  const routes: Route[] = [
    { method: 'POST', path: /^\/v1\/videos$/, readBody: readJsonOrFormBody, handle: (exchange) => createVideo(context, tasks, exchange) },
    { method: 'POST', path: /^\/v1\/videos\/([^/]+)\/remix$/, readBody: readJsonOrFormBody, handle: (exchange) => remixVideo(context, tasks, exchange) },
    { method: 'GET', path: /^\/v1\/videos\/(video_[^/]+)$/, handle: (exchange) => retrieveVideo(tasks, exchange) },
    { method: 'GET', path: /^\/v1\/videos\/([^/]+)\/content$/, handle: (exchange) => sendVideoContent(tasks, exchange) },
    { method: 'DELETE', path: /^\/v1\/videos\/([^/]+)$/, handle: (exchange) => deleteVideo(tasks, exchange) },
  ];
  return routes.map(requireBearerKey);
}

async function retrieveVideo(tasks: VideoTaskStore<SoraVideoTask>, { res, params }: Exchange): Promise<void> {
  const id = decodeURIComponent(params[0] ?? '');
  const task = tasks.get(id);
  if (!task) return sendOpenAIError(res, videoNotFound(id));
  const failure = takePollFailure(task);
  if (failure) return sendOpenAIError(res, simulatedFailure(failure, task.request.model));
  sendOpenAIJson(res, 200, videoObject(task));
}

async function deleteVideo(tasks: VideoTaskStore<SoraVideoTask>, { res, params }: Exchange): Promise<void> {
  const id = decodeURIComponent(params[0] ?? '');
  if (!tasks.delete(id)) return sendOpenAIError(res, videoNotFound(id));
  sendOpenAIJson(res, 200, { id, object: 'video.deleted', deleted: true });
}
