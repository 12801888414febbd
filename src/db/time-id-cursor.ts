import type { Cursor } from './page';

/** A row's place in a newest-first list over (created_at, id): stable under concurrent inserts. */
export interface TimeIdPosition {
  createdAt: Date;
  id: string;
}

/**
 * The opaque cursor of the lists ordered by (created_at, id), the same for
 * every one of them: the row's time and id, base64url.
 */
export const timeIdCursor: Cursor<TimeIdPosition> = {
  param: 'after',
  refusal: 'is not a cursor this API returned.',
  encode: (row) => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url'),
  read(text) {
    const [time, id] = Buffer.from(text, 'base64url').toString('utf8').split('|');
    const createdAt = new Date(time);
    return !id || Number.isNaN(createdAt.getTime()) ? undefined : { createdAt, id };
  },
};

/** The Prisma condition for rows strictly after `position` in (created_at desc, id desc) order. */
export function afterPosition({ createdAt, id }: TimeIdPosition) {
  return [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }];
}
