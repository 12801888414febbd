import type { SimulatorContext } from '../context';
import { parseDirectives } from '../directives';
import { randomHexId } from '../ids';
import { passOpenAIDirectiveGate } from '../openai/directive-gate';
import { badDirective, sendOpenAIError } from '../openai/errors';
import { sendOpenAIJson } from '../openai/respond';
import type { Exchange } from '../routing';
import { type VideoTaskStore, planVideoTask, startVideoTask, submissionDirectives } from '../video-task';
import { videoRequestFields } from './multipart-body';
import { videoNotFound, videoNotRemixable } from './video-errors';
import { type SoraVideoTask, soraVideoState, videoObject } from './video-object';
import { type SoraVideoRequest, validatePrompt, validateVideoRequest } from './video-request';

/**
 * `POST /v1/videos` and `POST /v1/videos/{id}/remix`: both start a task from a
 * prompt whose `[sim ...]` directives decide its fate. A remix keeps its
 * source's model, duration and size, and takes only a completed source.
 * @see https://platform.openai.com/docs/api-reference/videos/create
 * @see https://platform.openai.com/docs/api-reference/videos/remix
 */
export async function createVideo(context: SimulatorContext, tasks: VideoTaskStore<SoraVideoTask>, exchange: Exchange): Promise<void> {
  const fields = videoRequestFields(exchange, context.options.maxBodyBytes);
  if (!fields.ok) return sendOpenAIError(exchange.res, fields.error);
  const validated = validateVideoRequest(fields.value);
  if (!validated.ok) return sendOpenAIError(exchange.res, validated.error);
  await startSoraTask(context, tasks, exchange, validated.request, null);
}

export async function remixVideo(context: SimulatorContext, tasks: VideoTaskStore<SoraVideoTask>, exchange: Exchange): Promise<void> {
  const { res, params } = exchange;
  const sourceId = decodeURIComponent(params[0] ?? '');
  const source = tasks.get(sourceId);
  if (!source) return sendOpenAIError(res, videoNotFound(sourceId));
  const fields = videoRequestFields(exchange, context.options.maxBodyBytes);
  if (!fields.ok) return sendOpenAIError(res, fields.error);
  const prompt = validatePrompt((fields.value as { prompt?: unknown }).prompt);
  if (!prompt.ok) return sendOpenAIError(res, prompt.error);
  if (soraVideoState(source).status !== 'completed') return sendOpenAIError(res, videoNotRemixable(sourceId));
  await startSoraTask(context, tasks, exchange, { ...source.request, prompt: prompt.prompt }, sourceId);
}

async function startSoraTask(
  context: SimulatorContext,
  tasks: VideoTaskStore<SoraVideoTask>,
  exchange: Exchange,
  request: SoraVideoRequest,
  remixedFromVideoId: string | null,
): Promise<void> {
  const parsed = parseDirectives(request.prompt);
  if (!parsed.ok) return sendOpenAIError(exchange.res, badDirective(parsed.message));
  const planned = planVideoTask(parsed.directives, context.options.videoGenerationMs);
  if (!planned.ok) return sendOpenAIError(exchange.res, badDirective(planned.message));

  if (!(await passOpenAIDirectiveGate(context, exchange, submissionDirectives(parsed.directives), request.prompt, request.model))) return;
  const task: SoraVideoTask = { ...startVideoTask(planned.plan), id: randomHexId('video_', 32), request, remixedFromVideoId };
  tasks.add(task.id, task);
  sendOpenAIJson(exchange.res, 200, videoObject(task));
}
