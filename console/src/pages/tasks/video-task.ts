/** A video task as the console reads it from GraphQL (`VideoTask`), and how two states of one task compare. */

export type TaskStatus = 'QUEUED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'EXPIRED';

export interface VideoTask {
  id: string;
  model: string;
  status: TaskStatus;
  progress: number;
  prompt: string;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
  videoUrl: string | null;
  size: string | null;
  resolution: string | null;
  durationSeconds: number;
  respectModeration: boolean | null;
  error: { code: string; message: string } | null;
}

/** The fields every task query and subscription of the console selects. */
export const VIDEO_TASK_FIELDS = `id model status progress prompt createdAt updatedAt completedAt videoUrl size resolution durationSeconds respectModeration error { code message }`;

export function isFinal(status: TaskStatus): boolean {
  return status === 'COMPLETED' || status === 'FAILED' || status === 'EXPIRED';
}

/**
 * Whether `a` is a later state of the task than `b`. A query answer and a
 * subscription event may arrive in either order; the later state wins:
 * the later update, else the final one, else the further progress.
 */
export function isLaterState(a: VideoTask, b: VideoTask): boolean {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt;
  if (isFinal(a.status) !== isFinal(b.status)) return isFinal(a.status);
  return a.progress >= b.progress;
}

/** Newest first, as the gateway lists tasks. */
export function byNewest(a: VideoTask, b: VideoTask): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1);
}
