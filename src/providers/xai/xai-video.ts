import { parseRetryAfter } from '../upstream-error';
import { parseUpstreamJson, sendForText } from '../upstream-json';
import type { VideoAdapter, VideoCall } from '../video-adapter';
import { xaiVideoSubmitResponseSchema } from './xai-video-api';
import { toXaiVideoBody } from './xai-video-request';
import { toXaiVideoPoll } from './xai-video-state';

/**
 * xAI video generation (grok-imagine-video): submit, then poll by
 * `request_id`. The finished video is a temporary URL in the status answer;
 * there is no remix and no download endpoint. A 429 or 5xx on a poll is
 * thrown as a retryable UpstreamError with its Retry-After, for the caller
 * to reschedule the poll.
 * @see https://docs.x.ai/docs/guides/video-generations
 */
export const xaiVideoAdapter: VideoAdapter = {
  async submit(call, submission) {
    const { text } = await sendForText({
      url: `${call.provider.baseUrl}/videos/generations`,
      headers: { ...headersFor(call), 'content-type': 'application/json' },
      body: JSON.stringify(toXaiVideoBody(submission, call.upstreamModel)),
      signal: call.signal,
      span: call.span,
      timeoutMs: call.provider.timeoutMs,
    });
    const wire = parseUpstreamJson(xaiVideoSubmitResponseSchema, text, 'an xAI video submission answer', false);
    return { upstreamId: wire.request_id, raw: wire };
  },

  async poll(call, upstreamId) {
    const { status, headers, text } = await sendForText({
      method: 'GET',
      url: `${call.provider.baseUrl}/videos/${encodeURIComponent(upstreamId)}`,
      headers: headersFor(call),
      signal: call.signal,
      span: call.span,
      timeoutMs: call.provider.timeoutMs,
    });
    return toXaiVideoPoll(status, text, parseRetryAfter(headers['retry-after']));
  },
};

function headersFor(call: VideoCall): Record<string, string> {
  return { accept: 'application/json', authorization: `Bearer ${call.provider.apiKey}`, ...call.provider.headers };
}
