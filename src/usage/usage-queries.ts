import type { Prisma, PrismaClient, UsageRecord } from '../generated/prisma/client';
import { decodeCursor, pageOf, type Page, type PageRequest } from '../db/page';
import { afterPosition, timeIdCursor } from '../db/time-id-cursor';
import { timeWindowOfIds } from '../db/time-ordered-id';
import { isWellFormedId } from '../db/well-formed-id';
import type { UsageShapes } from '../billing/usage-shapes';
import { toUsageRecordView, type UsageRecordView } from '../billing/usage-record-view';
import type { Principal } from '../keys/principal';

/** `succeeded`: answered with a status below 400; `failed`: 400 and above (refusals and upstream failures alike). */
export type UsageOutcome = 'succeeded' | 'failed';

export interface UsageRecordFilter {
  model?: string;
  /** The exact path, e.g. `/v1/chat/completions`. */
  endpoint?: string;
  outcome?: UsageOutcome;
  since?: Date;
  until?: Date;
}

/**
 * A record as listings resolve it: the public view, plus the key that made
 * it (a temporary credential, for its own requests), which the REST view
 * leaves out and GraphQL shows as `apiKey`.
 */
export type KeyedUsageRecord = UsageRecordView & { key_id: string };

/** Reads of usage records, always scoped to the calling key. */
export class UsageQueries {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly shapes: UsageShapes,
  ) {}

  async byId(principal: Principal, id: string): Promise<UsageRecordView | null> {
    const [row] = await this.rowsByIds(principal, [id]);
    if (!row) return null;
    const [parts] = await this.shapes.partsOf([row]);
    return toUsageRecordView(row, parts!);
  }

  /** The records of these ids the key made, in one statement, in no particular order. */
  async byIds(principal: Principal, ids: readonly string[]): Promise<KeyedUsageRecord[]> {
    return this.keyedViews(await this.rowsByIds(principal, ids));
  }

  /**
   * Another key's record is left out exactly like a missing one (and so is
   * an id that is not well formed). Ids that carry their time are looked
   * for in the partitions of that time only.
   */
  private async rowsByIds(principal: Principal, ids: readonly string[]): Promise<UsageRecord[]> {
    const wellFormed = [...new Set(ids)].filter(isWellFormedId);
    if (!wellFormed.length) return [];
    const window = timeWindowOfIds(wellFormed);
    return this.prisma.usageRecord.findMany({ where: { id: { in: wellFormed }, keyId: principal.keyId, ...(window ? { createdAt: window } : {}) } });
  }

  private async keyedViews(rows: UsageRecord[]): Promise<KeyedUsageRecord[]> {
    const parts = await this.shapes.partsOf(rows);
    return rows.map((row, i) => ({ ...toUsageRecordView(row, parts[i]!), key_id: row.keyId }));
  }

  /**
   * Newest first; the cursor is opaque (a record's time and id). The
   * filters narrow the rows the key's (key_id, created_at, id) index walks in
   * that same order, so a cursor taken with filters continues them exactly.
   */
  async page(principal: Principal, request: PageRequest, filter: UsageRecordFilter): Promise<Page<KeyedUsageRecord>> {
    const where: Prisma.UsageRecordWhereInput = { keyId: principal.keyId };
    if (filter.model) where.model = filter.model;
    if (filter.endpoint) where.endpoint = filter.endpoint;
    if (filter.outcome) where.statusCode = filter.outcome === 'succeeded' ? { lt: 400 } : { gte: 400 };
    if (filter.since || filter.until) where.createdAt = { ...(filter.since ? { gte: filter.since } : {}), ...(filter.until ? { lt: filter.until } : {}) };
    if (request.after !== null) where.OR = afterPosition(decodeCursor(timeIdCursor, request.after));
    const rows = await this.prisma.usageRecord.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: request.limit + 1 });
    const page = pageOf(rows, request.limit, (row) => row, timeIdCursor.encode);
    return { ...page, items: await this.keyedViews(page.items) };
  }
}
