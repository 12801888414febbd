import type { Cursor } from '../db/page';
import type { TimeIdPosition } from '../db/time-id-cursor';
import { fileIdTime } from './file-id';

/**
 * The cursor of OpenAI's `GET /v1/files`: `after` is the last file id of
 * the previous page. The id carries its upload time, so it needs no lookup
 * and keeps working when that file has since been deleted.
 */
export const fileIdCursor: Cursor<TimeIdPosition> = {
  param: 'after',
  refusal: 'must be a file id this API returned (the last id of the previous page).',
  encode: (file) => file.id,
  read(id) {
    const createdAt = fileIdTime(id);
    return createdAt && { createdAt, id };
  },
};
