import { type VideoTask, type VideoTaskPhase, videoTaskPhase } from '../video-task';
import type { SoraVideoRequest } from './video-request';

/**
 * The Video object the Videos API returns from create, retrieve and remix.
 * A task is `queued` for its first tenth, then `in_progress` with a rising
 * `progress`. OpenAI has no `expired` status: an expired task is completed
 * with an `expires_at` already past, and its content is gone. A moderated
 * one fails with `moderation_blocked`; that code is assumed, not documented.
 * @see https://platform.openai.com/docs/api-reference/videos/object
 */
export interface SoraVideoTask extends VideoTask {
  id: string;
  request: SoraVideoRequest;
  remixedFromVideoId: string | null;
}

/** Where a Sora task stands, in the Videos API's own terms. */
export type SoraVideoState =
  | { status: 'queued' | 'in_progress'; progress: number }
  | { status: 'completed'; contentAvailable: boolean }
  | { status: 'failed'; error: { code: string; message: string } };

const QUEUED_BELOW_PROGRESS = 10;
/** Download links last about an hour (not confirmed by OpenAI's reference). */
const CONTENT_LIFETIME_SECONDS = 3600;
const MODERATION_FAILURE = { code: 'moderation_blocked', message: 'The generated video was blocked by our moderation system.' };

export function soraVideoState(task: SoraVideoTask, now = Date.now()): SoraVideoState {
  return stateOf(videoTaskPhase(task, now), task);
}

function stateOf(phase: VideoTaskPhase, task: SoraVideoTask): SoraVideoState {
  switch (phase.phase) {
    case 'running':
      return phase.progress < QUEUED_BELOW_PROGRESS ? { status: 'queued', progress: 0 } : { status: 'in_progress', progress: phase.progress };
    case 'failed':
      return { status: 'failed', error: task.plan.failure };
    case 'expired':
      return { status: 'completed', contentAvailable: false };
    case 'done':
      return task.plan.moderated ? { status: 'failed', error: MODERATION_FAILURE } : { status: 'completed', contentAvailable: true };
  }
}

export function videoObject(task: SoraVideoTask, now = Date.now()): object {
  const state = soraVideoState(task, now);
  const finishedAt = unixSeconds(task.submittedAt + task.plan.generationMs);
  const completedAt = state.status === 'completed' ? finishedAt : null;
  const expiresAt = state.status !== 'completed' ? null : state.contentAvailable ? finishedAt + CONTENT_LIFETIME_SECONDS : finishedAt;
  return {
    id: task.id,
    object: 'video',
    model: task.request.model,
    status: state.status,
    progress: 'progress' in state ? state.progress : state.status === 'completed' ? 100 : 0,
    created_at: unixSeconds(task.submittedAt),
    completed_at: completedAt,
    expires_at: expiresAt,
    prompt: task.request.prompt,
    seconds: task.request.seconds,
    size: task.request.size,
    remixed_from_video_id: task.remixedFromVideoId,
    error: state.status === 'failed' ? state.error : null,
  };
}

function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
