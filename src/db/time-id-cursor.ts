/**
 * Opaque cursors for newest-first pagination over (created_at, id): stable
 * under concurrent inserts, and the same for every paginated list.
 */
export class InvalidCursorError extends Error {
  constructor() {
    super('the "after" cursor is not one this API returned');
  }
}

export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time);
  if (!id || Number.isNaN(createdAt.getTime())) throw new InvalidCursorError();
  return { createdAt, id };
}

/** The Prisma condition for rows strictly after the cursor in (created_at desc, id desc) order. */
export function afterCursor(cursor: string) {
  const { createdAt, id } = decodeCursor(cursor);
  return [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }];
}
