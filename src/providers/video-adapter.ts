import type { Readable } from 'node:stream';
import type { ResolvedProvider } from './resolved-provider';
import type { UpstreamScope } from './http-client';

/**
 * Asynchronous video generation upstreams. Every provider implements the
 * same steps: submit, poll by the upstream's id, and (where the protocol has
 * them) remix and download. The gateway keeps the upstream id to itself.
 */

export interface VideoImageInput {
  /** Image-to-video by URL (xAI style): https or data URL. */
  url?: string;
  /** Image-to-video by upload (OpenAI `input_reference`): the file's bytes. */
  file?: { filename: string; contentType: string; data: Buffer };
}

export interface VideoSubmission {
  prompt: string;
  /** Seconds of video. */
  durationSeconds: number;
  /** xAI style: `480p` | `720p`, and an aspect ratio such as `16:9`. */
  resolution?: string;
  aspectRatio?: string;
  /** OpenAI style: `WIDTHxHEIGHT` in pixels. */
  size?: string;
  image?: VideoImageInput;
}

export type UpstreamVideoState =
  | { state: 'pending'; progress?: number; upstreamStatus: string }
  | { state: 'completed'; videoUrl?: string; durationSeconds?: number; respectModeration?: boolean; progress?: number; upstreamStatus: string }
  | { state: 'failed'; error: { code: string; message: string }; upstreamStatus: string }
  | { state: 'expired'; upstreamStatus: string };

export interface VideoPoll {
  status: UpstreamVideoState;
  /** The upstream asked to wait this long before the next poll (Retry-After). */
  retryAfterSeconds?: number;
  /** The upstream's answer as received, kept for operators. */
  raw: unknown;
}

export interface VideoCall extends UpstreamScope {
  provider: ResolvedProvider;
  upstreamModel: string;
}

export interface VideoContent {
  status: number;
  headers: Record<string, string>;
  /** Streamed through, never buffered whole. */
  body: Readable;
}

export interface VideoAdapter {
  submit(call: VideoCall, submission: VideoSubmission): Promise<{ upstreamId: string; raw: unknown }>;
  poll(call: VideoCall, upstreamId: string): Promise<VideoPoll>;
  /** Only on protocols with remix (OpenAI Videos). */
  remix?(call: VideoCall, upstreamId: string, prompt: string): Promise<{ upstreamId: string; raw: unknown }>;
  /** Only on protocols that serve the bytes themselves (OpenAI Videos). */
  content?(call: VideoCall, upstreamId: string, variant: string): Promise<VideoContent>;
  /** Only on protocols that keep the video for download (OpenAI Videos): removes the upstream's copy. */
  delete?(call: VideoCall, upstreamId: string): Promise<void>;
}
