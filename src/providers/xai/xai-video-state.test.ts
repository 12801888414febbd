import { UpstreamError } from '../upstream-error';
import { toXaiVideoPoll } from './xai-video-state';

describe('toXaiVideoPoll', () => {
  it('reads an HTTP 202 with an empty body as pending, keeping Retry-After', () => {
    expect(toXaiVideoPoll(202, '', 5)).toEqual({ status: { state: 'pending', upstreamStatus: 'pending' }, retryAfterSeconds: 5, raw: null });
  });

  it('reads a video without status as done, as the Vercel AI SDK does', () => {
    const poll = toXaiVideoPoll(200, JSON.stringify({ video: { url: 'https://vidgen.x.ai/a.mp4', duration: 6, respect_moderation: true }, model: 'grok-imagine-video' }), undefined);
    expect(poll.status).toEqual({ state: 'completed', upstreamStatus: 'done', videoUrl: 'https://vidgen.x.ai/a.mp4', durationSeconds: 6, respectModeration: true, progress: undefined });
  });

  it('fills in a failure without details', () => {
    expect(toXaiVideoPoll(200, '{"status":"failed"}', undefined).status).toEqual({
      state: 'failed',
      upstreamStatus: 'failed',
      error: { code: 'video_generation_failed', message: 'xAI reported that the video generation failed.' },
    });
  });

  it('refuses answers whose fields changed type or meaning', () => {
    for (const text of ['{"status":"done"}', '{"status":"finished"}', '{"status":"done","video":{"url":"u","duration":"6"}}', 'not json']) {
      expect(() => toXaiVideoPoll(200, text, undefined)).toThrow(UpstreamError);
    }
  });
});
