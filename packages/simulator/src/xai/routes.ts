import { randomUUID } from 'node:crypto';
import type { SimulatorContext } from '../context';
import { parseDirectives } from '../directives';
import { requireBearerKey } from '../openai/auth';
import { passOpenAIDirectiveGate } from '../openai/directive-gate';
import { type OpenAIError, badDirective, sendOpenAIError, simulatedFailure } from '../openai/errors';
import { openaiJsonBody } from '../openai/request-body';
import type { Exchange, Route } from '../routing';
import { sendJson } from '../send';
import { VideoTaskStore, planVideoTask, startVideoTask, submissionDirectives, takePollFailure } from '../video-task';
import { validateGenerationRequest } from './generation-request';
import { type XaiVideoTask, xaiPollBody } from './poll-response';

/**
 * xAI video generation: submit, then poll by `request_id`. The poll route
 * takes any id, so it must be mounted after the OpenAI Videos routes, which
 * share the `GET /v1/videos/{id}` path and claim only `video_…` ids.
 * @see https://docs.x.ai/docs/guides/video-generations
 */
export function xaiVideoRoutes(context: SimulatorContext): Route[] {
  const tasks = new VideoTaskStore<XaiVideoTask>();
  const routes: Route[] = [
    { method: 'POST', path: /^\/v1\/videos\/generations$/, handle: (exchange) => submitGeneration(context, tasks, exchange) },
    { method: 'GET', path: /^\/v1\/videos\/([^/]+)$/, handle: (exchange) => pollGeneration(tasks, exchange) },
  ];
  return routes.map(requireBearerKey);
}

async function submitGeneration(context: SimulatorContext, tasks: VideoTaskStore<XaiVideoTask>, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const body = openaiJsonBody(exchange.body, context.options.maxBodyBytes);
  if (!body.ok) return sendOpenAIError(res, body.error);
  const validated = validateGenerationRequest(body.value);
  if (!validated.ok) return sendOpenAIError(res, validated.error);
  const { request } = validated;
  const parsed = parseDirectives(request.prompt);
  if (!parsed.ok) return sendOpenAIError(res, badDirective(parsed.message));
  const planned = planVideoTask(parsed.directives, context.options.videoGenerationMs);
  if (!planned.ok) return sendOpenAIError(res, badDirective(planned.message));

  if (!(await passOpenAIDirectiveGate(context, exchange, submissionDirectives(parsed.directives), request.prompt, request.model))) return;
  const requestId = randomUUID();
  tasks.add(requestId, { ...startVideoTask(planned.plan), requestId, request });
  sendJson(res, 200, { request_id: requestId });
}

async function pollGeneration(tasks: VideoTaskStore<XaiVideoTask>, { res, params }: Exchange): Promise<void> {
  const requestId = decodeURIComponent(params[0] ?? '');
  const task = tasks.get(requestId);
  if (!task) return sendOpenAIError(res, requestNotFound(requestId));
  const failure = takePollFailure(task);
  if (failure) return sendOpenAIError(res, simulatedFailure(failure, task.request.model));
  sendJson(res, 200, xaiPollBody(task));
}

function requestNotFound(requestId: string): OpenAIError {
  return { status: 404, error: { message: `No video generation request with id '${requestId}'.`, type: 'invalid_request_error', param: null, code: 'not_found' } };
}
