import { sendUpstream, type UpstreamScope } from '../http-client';
import { parseRetryAfter } from '../upstream-error';
import { parseUpstreamJson, sendForText, throwIfErrorAnswer } from '../upstream-json';
import type { VideoAdapter, VideoCall, VideoContent } from '../video-adapter';
import { openAIVideoSchema } from './openai-videos-api';
import { toOpenAIVideoForm } from './openai-videos-request';
import { toOpenAIVideoState } from './openai-videos-state';

/**
 * The OpenAI Videos API (Sora 2): create, retrieve, remix, download and delete. The
 * Video object's `id` is the upstream id; a remix is a new video with its own.
 * @see https://platform.openai.com/docs/api-reference/videos
 */
export const openAIVideosAdapter: VideoAdapter = {
  async submit(call, submission) {
    const form = toOpenAIVideoForm(submission, call.upstreamModel);
    return startVideo(call, '/videos', form.contentType, form.body);
  },

  async poll(call, upstreamId) {
    const { headers, text } = await sendForText({ method: 'GET', url: videoUrl(call, upstreamId), headers: headersFor(call), ...limits(call) });
    const video = parseUpstreamJson(openAIVideoSchema, text, 'an OpenAI Video object', true);
    return { status: toOpenAIVideoState(video), retryAfterSeconds: parseRetryAfter(headers['retry-after']), raw: video };
  },

  async remix(call, upstreamId, prompt) {
    return startVideo(call, `/videos/${encodeURIComponent(upstreamId)}/remix`, 'application/json', JSON.stringify({ prompt }));
  },

  /** The bytes are passed through as they arrive; only an error answer is read whole. */
  async content(call, upstreamId, variant): Promise<VideoContent> {
    const res = await sendUpstream({
      method: 'GET',
      url: `${videoUrl(call, upstreamId)}/content?variant=${encodeURIComponent(variant)}`,
      headers: { ...headersFor(call), accept: 'application/binary' },
      ...limits(call),
    });
    await throwIfErrorAnswer(res, call.signal);
    return { status: res.status, headers: pickHeaders(res.headers, ['content-type', 'content-length']), body: res.body };
  },

  /** The answer (`{id, object: "video.deleted", deleted: true}`) says nothing the status does not. */
  async delete(call, upstreamId) {
    await sendForText({ method: 'DELETE', url: videoUrl(call, upstreamId), headers: headersFor(call), ...limits(call) });
  },
};

async function startVideo(call: VideoCall, path: string, contentType: string, body: string | Buffer): Promise<{ upstreamId: string; raw: unknown }> {
  const { text } = await sendForText({
    url: `${call.provider.baseUrl}${path}`,
    headers: { ...headersFor(call), 'content-type': contentType },
    body,
    ...limits(call),
  });
  const video = parseUpstreamJson(openAIVideoSchema, text, 'an OpenAI Video object', false);
  return { upstreamId: video.id, raw: video };
}

function videoUrl(call: VideoCall, upstreamId: string): string {
  return `${call.provider.baseUrl}/videos/${encodeURIComponent(upstreamId)}`;
}

function headersFor(call: VideoCall): Record<string, string> {
  return { accept: 'application/json', authorization: `Bearer ${call.provider.apiKey}`, ...call.provider.headers };
}

function limits(call: VideoCall): UpstreamScope & { timeoutMs: number } {
  return { signal: call.signal, span: call.span, timeoutMs: call.provider.timeoutMs };
}

function pickHeaders(headers: Record<string, string | string[] | undefined>, names: string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}
