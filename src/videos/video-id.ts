import { randomUUID } from 'node:crypto';

/** The ids the gateway gives its video tasks: `video_` and 32 hex digits (a random UUID's). */
const VIDEO_ID = /^video_[0-9a-f]{32}$/;

export function newVideoId(): string {
  return `video_${randomUUID().replace(/-/g, '')}`;
}

export function isVideoId(text: string): boolean {
  return VIDEO_ID.test(text);
}
