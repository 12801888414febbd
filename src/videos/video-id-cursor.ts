import type { Cursor } from '../db/page';
import { isVideoId } from './video-id';

/**
 * The cursor of OpenAI's `GET /v1/videos`: `after` is the last video id of
 * the previous page (what the SDK's auto-pagination sends). The id carries
 * no time, so the list looks the task up to find its place; a task deleted
 * since keeps its place, so paging goes on past it.
 */
export const videoIdCursor: Cursor<string> = {
  param: 'after',
  refusal: 'must be the id of a video of this key (the last id of the previous page).',
  encode: (id) => id,
  read: (text) => (isVideoId(text) ? text : undefined),
};
