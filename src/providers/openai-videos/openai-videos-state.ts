import type { UpstreamVideoState } from '../video-adapter';
import type { OpenAIVideoWire } from './openai-videos-api';

/**
 * A Video object as the gateway's video state. A completed video has no URL:
 * its bytes come from the content endpoint. A failure carries the upstream's
 * own code and text as received, for the gateway's logs: what a client reads
 * is worded by the gateway (`videos/task-errors.ts`), never this text.
 * @see https://platform.openai.com/docs/api-reference/videos/object
 */
export function toOpenAIVideoState(video: OpenAIVideoWire): UpstreamVideoState {
  const progress = video.progress ?? undefined;
  switch (video.status) {
    case 'queued':
    case 'in_progress':
      return { state: 'pending', upstreamStatus: video.status, progress };
    case 'completed':
      return { state: 'completed', upstreamStatus: video.status, progress };
    case 'failed':
      return {
        state: 'failed',
        upstreamStatus: video.status,
        error: { code: video.error?.code ?? 'video_generation_failed', message: video.error?.message ?? 'OpenAI reported that the video generation failed.' },
      };
  }
}
