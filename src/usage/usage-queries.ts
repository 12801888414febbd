import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { toUsageRecordView, type UsageRecordView } from '../billing/usage-record-view';
import type { Principal } from '../keys/principal';

export interface UsageRecordFilter {
  model?: string;
  since?: Date;
  until?: Date;
}

export interface UsagePage {
  records: UsageRecordView[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** Reads of usage records, always scoped to the calling key. */
export class UsageQueries {
  constructor(private readonly prisma: PrismaClient) {}

  async byId(principal: Principal, id: string): Promise<UsageRecordView | null> {
    if (id.length > 128) return null;
    const row = await this.prisma.usageRecord.findUnique({ where: { id } });
    // Another key's record answers exactly like a missing one.
    if (!row || row.keyId !== principal.keyId) return null;
    return toUsageRecordView(row);
  }

  /** Newest first; the cursor is opaque (the last record's time and id). */
  async page(principal: Principal, first: number, after: string | null, filter: UsageRecordFilter): Promise<UsagePage> {
    const where: Prisma.UsageRecordWhereInput = { keyId: principal.keyId };
    if (filter.model) where.model = filter.model;
    if (filter.since || filter.until) where.createdAt = { ...(filter.since ? { gte: filter.since } : {}), ...(filter.until ? { lt: filter.until } : {}) };
    const cursor = after ? decodeCursor(after) : null;
    if (cursor) {
      where.OR = [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }];
    }
    const rows = await this.prisma.usageRecord.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: first + 1 });
    const page = rows.slice(0, first);
    const last = page[page.length - 1];
    return {
      records: page.map(toUsageRecordView),
      endCursor: last ? encodeCursor(last.createdAt, last.id) : null,
      hasNextPage: rows.length > first,
    };
  }
}

export class InvalidCursorError extends Error {}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time);
  if (!id || Number.isNaN(createdAt.getTime())) throw new InvalidCursorError('the "after" cursor is not one this API returned');
  return { createdAt, id };
}
