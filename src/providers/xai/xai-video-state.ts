import { parseUpstreamJson } from '../upstream-json';
import { UpstreamError } from '../upstream-error';
import type { UpstreamVideoState, VideoPoll } from '../video-adapter';
import { type XaiVideoStatusWire, xaiVideoStatusResponseSchema } from './xai-video-api';

/**
 * An xAI status answer as the gateway's video state. The first poll may be
 * an HTTP 202 with an empty body (so the Vercel AI SDK's tests mock it; the
 * docs show `status: "pending"`): both are pending,
 * as is an answer with neither a status nor a video.
 * `respect_moderation: false` is still a completed task; the caller decides
 * that its URL must not be used. A failure carries the upstream's own code
 * and text as received, for the gateway's logs: what a client reads is
 * worded by the gateway (`videos/task-errors.ts`), never this text.
 * @see https://docs.x.ai/docs/guides/video-generations
 */
export function toXaiVideoPoll(httpStatus: number, text: string, retryAfterSeconds: number | undefined): VideoPoll {
  if (httpStatus === 202 && text.trim() === '') return { status: { state: 'pending', upstreamStatus: 'pending' }, retryAfterSeconds, raw: null };
  const wire = parseUpstreamJson(xaiVideoStatusResponseSchema, text, 'an xAI video status', true);
  return { status: toXaiVideoState(wire), retryAfterSeconds, raw: wire };
}

export function toXaiVideoState(wire: XaiVideoStatusWire): UpstreamVideoState {
  const status = wire.status ?? (wire.video ? 'done' : undefined);
  switch (status) {
    case 'done': {
      if (!wire.video) throw new UpstreamError('xAI reported a done video without its URL', { status: 502, retryable: true });
      return {
        state: 'completed',
        upstreamStatus: status,
        videoUrl: wire.video.url,
        durationSeconds: wire.video.duration ?? undefined,
        respectModeration: wire.video.respect_moderation ?? undefined,
        progress: wire.progress ?? undefined,
      };
    }
    case 'pending':
    case undefined:
      return { state: 'pending', upstreamStatus: 'pending', progress: wire.progress ?? undefined };
    case 'failed':
      return {
        state: 'failed',
        upstreamStatus: status,
        error: { code: wire.error?.code ?? 'video_generation_failed', message: wire.error?.message ?? 'xAI reported that the video generation failed.' },
      };
    case 'expired':
      return { state: 'expired', upstreamStatus: status };
  }
}
