import type { VideoTask, VideoTaskError } from './video-task';

/**
 * The xAI-style view: `{status: "pending"}` while unfinished; once done
 * `{model, video: {url, duration, respect_moderation}}` with no `status` and
 * the two values as strings, exactly as the spec shows. Failure and expiry
 * (which the spec leaves open) carry `status` and an `error` object.
 */
export function xaiTaskView(task: VideoTask) {
  const result = task.result ?? {};
  const params = task.params;
  switch (task.status) {
    case 'completed':
      return {
        model: task.model,
        video: {
          url: result.url ?? '',
          duration: String(result.durationSeconds ?? params.durationSeconds),
          respect_moderation: String(result.respectModeration ?? true),
        },
      };
    case 'failed':
    case 'expired':
      return { status: task.status, error: task.error };
    default:
      return { status: 'pending' as const };
  }
}

/** The OpenAI video object, under the gateway's own id. */
export function openAITaskView(task: VideoTask) {
  const { params, error } = task;
  return {
    id: task.id,
    object: 'video' as const,
    model: task.model,
    status: openAIStatus(task.status),
    progress: task.status === 'completed' ? 100 : task.progress,
    created_at: Math.floor(task.createdAt.getTime() / 1000),
    completed_at: task.completedAt ? Math.floor(task.completedAt.getTime() / 1000) : null,
    expires_at: null,
    prompt: params.prompt,
    seconds: params.seconds ?? String(params.durationSeconds),
    size: params.size ?? null,
    remixed_from_video_id: task.remixedFrom,
    error: error ?? null,
  };
}

/** OpenAI has no `expired` status: an expired task is a failed one whose error says so. */
function openAIStatus(status: string): 'queued' | 'in_progress' | 'completed' | 'failed' {
  if (status === 'submitting') return 'queued';
  if (status === 'expired') return 'failed';
  return status as 'queued' | 'in_progress' | 'completed' | 'failed';
}

export function taskView(task: VideoTask) {
  return task.api === 'openai' ? openAITaskView(task) : xaiTaskView(task);
}

/**
 * A task as its owner's dashboards see it (GraphQL, subscriptions): every
 * public field, plain JSON so it can cross Redis. `keyId` routes it to the
 * right subscribers and is never returned to clients.
 */
export interface TaskSnapshot {
  id: string;
  keyId: string;
  version: number;
  requestId: string;
  model: string;
  status: 'queued' | 'in_progress' | 'completed' | 'failed' | 'expired';
  progress: number;
  prompt: string;
  durationSeconds: number;
  resolution: string | null;
  aspectRatio: string | null;
  size: string | null;
  videoUrl: string | null;
  respectModeration: boolean | null;
  error: VideoTaskError | null;
  remixedFrom: string | null;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
}

export function taskSnapshot(task: VideoTask): TaskSnapshot {
  const params = task.params;
  const result = task.result ?? {};
  const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);
  return {
    id: task.id,
    keyId: task.keyId,
    version: task.version,
    requestId: task.requestId,
    model: task.model,
    status: task.status === 'submitting' ? 'queued' : (task.status as TaskSnapshot['status']),
    progress: task.status === 'completed' ? 100 : task.progress,
    prompt: params.prompt,
    durationSeconds: result.durationSeconds ?? params.durationSeconds,
    resolution: params.resolution ?? null,
    aspectRatio: params.aspectRatio ?? null,
    size: params.size ?? null,
    // OpenAI-style results are downloaded from GET /v1/videos/{id}/content, not by URL.
    videoUrl: task.status === 'completed' ? (result.url ?? null) : null,
    respectModeration: task.status === 'completed' ? (result.respectModeration ?? true) : null,
    error: task.error,
    remixedFrom: task.remixedFrom,
    createdAt: seconds(task.createdAt)!,
    updatedAt: seconds(task.updatedAt)!,
    completedAt: seconds(task.completedAt),
  };
}
