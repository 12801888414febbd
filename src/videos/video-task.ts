import { z } from 'zod';
import type { VideoTask as VideoTaskRow } from '../generated/prisma/client';

/** What a task was asked for (the `params` JSON column). */
export const videoTaskParamsSchema = z.object({
  prompt: z.string(),
  durationSeconds: z.number(),
  resolution: z.string().optional(),
  aspectRatio: z.string().optional(),
  size: z.string().optional(),
  /** OpenAI's `seconds`, kept as the string the API uses. */
  seconds: z.string().optional(),
  /** The start frame by `https://` URL (at most 2,048 characters), as given. */
  imageUrl: z.string().optional(),
  /**
   * A start frame sent inline as a `data:` URL (up to 15 MB): only its media
   * type, size and SHA-256 (of the URL as sent) are kept. The bytes went to
   * the upstream at submission; stored here, every claim, poll and read of
   * the task would load them again.
   */
  imageData: z.object({ mediaType: z.string(), bytes: z.number(), sha256: z.string() }).optional(),
  inputReference: z.object({ filename: z.string(), contentType: z.string(), bytes: z.number() }).optional(),
  /** The usage dimension the task is billed under, e.g. `video_seconds_720p`. */
  billingDimension: z.string(),
});

/** What a completed task delivered (the `result` JSON column). */
export const videoTaskResultSchema = z.object({
  url: z.string().optional(),
  durationSeconds: z.number().optional(),
  respectModeration: z.boolean().optional(),
});

/** Why a task failed or expired (the `error` JSON column); codes in `TASK_ERROR_CODES`, or the upstream's own. */
export const videoTaskErrorSchema = z.object({ code: z.string(), message: z.string() });

export type VideoTaskParams = z.infer<typeof videoTaskParamsSchema>;
export type VideoTaskResult = z.infer<typeof videoTaskResultSchema>;
export type VideoTaskError = z.infer<typeof videoTaskErrorSchema>;

/** A `video_tasks` row with its JSON columns read through their schemas. */
export interface VideoTask extends Omit<VideoTaskRow, 'params' | 'result' | 'error'> {
  params: VideoTaskParams;
  result: VideoTaskResult | null;
  error: VideoTaskError | null;
}

/** The data-layer edge: a row as stored becomes a task whose JSON is known to have its shape. */
export function toVideoTask(row: VideoTaskRow): VideoTask {
  return {
    ...row,
    params: videoTaskParamsSchema.parse(row.params),
    result: row.result === null ? null : videoTaskResultSchema.parse(row.result),
    error: row.error === null ? null : videoTaskErrorSchema.parse(row.error),
  };
}

export const FINISHED_STATUSES = ['completed', 'failed', 'expired'] as const;

export function isFinished(status: string): boolean {
  return (FINISHED_STATUSES as readonly string[]).includes(status);
}
