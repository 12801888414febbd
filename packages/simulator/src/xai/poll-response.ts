import { type VideoTask, videoTaskPhase } from '../video-task';
import type { XaiGenerationRequest } from './generation-request';

/**
 * The body of `GET /v1/videos/{request_id}` at a given time. `progress` and
 * `usage.cost_in_usd_ticks` are not confirmed to appear every time; the
 * simulator always sends them.
 * @see https://docs.x.ai/docs/guides/video-generations
 */
export interface XaiVideoTask extends VideoTask {
  requestId: string;
  request: XaiGenerationRequest;
}

/** A tick is 1e-10 USD. The per-second prices are resellers' figures for grok-imagine-video, not xAI's own. */
const TICKS_PER_SECOND_BY_RESOLUTION: { [resolution: string]: number } = {
  '480p': 500_000_000,
  '720p': 700_000_000,
};

export function xaiPollBody(task: XaiVideoTask, now = Date.now()): object {
  const phase = videoTaskPhase(task, now);
  switch (phase.phase) {
    case 'running':
      return { status: 'pending', progress: phase.progress };
    case 'failed':
      return { status: 'failed', error: task.plan.failure };
    case 'expired':
      return { status: 'expired' };
    case 'done':
      return doneBody(task);
  }
}

function doneBody({ requestId, request, plan }: XaiVideoTask): object {
  return {
    status: 'done',
    video: { url: `https://vidgen.x.ai/xai-vidgen-bucket/xai-video-${requestId}.mp4`, duration: request.duration, respect_moderation: !plan.moderated },
    model: request.model,
    usage: { cost_in_usd_ticks: request.duration * (TICKS_PER_SECOND_BY_RESOLUTION[request.resolution] ?? 0) },
    progress: 100,
  };
}
