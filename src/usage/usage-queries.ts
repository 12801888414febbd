import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { afterCursor, encodeCursor } from '../db/time-id-cursor';
import { isWellFormedId } from '../db/well-formed-id';
import { toUsageRecordView, type UsageRecordView } from '../billing/usage-record-view';
import type { Principal } from '../keys/principal';

export interface UsageRecordFilter {
  model?: string;
  since?: Date;
  until?: Date;
}

export interface UsagePage {
  records: UsageRecordView[];
  /** One opaque cursor per record, for Relay-style edges. */
  cursors: string[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** Reads of usage records, always scoped to the calling key. */
export class UsageQueries {
  constructor(private readonly prisma: PrismaClient) {}

  async byId(principal: Principal, id: string): Promise<UsageRecordView | null> {
    if (!isWellFormedId(id)) return null;
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
    if (after) where.OR = afterCursor(after);
    const rows = await this.prisma.usageRecord.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: first + 1 });
    const page = rows.slice(0, first);
    const last = page[page.length - 1];
    return {
      records: page.map(toUsageRecordView),
      cursors: page.map(encodeCursor),
      endCursor: last ? encodeCursor(last) : null,
      hasNextPage: rows.length > first,
    };
  }
}

export { InvalidCursorError } from '../db/time-id-cursor';
