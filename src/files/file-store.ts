import type { Database } from '../db/database';
import { pageOf, type Cursor, type Page } from '../db/page';
import type { TimeIdPosition } from '../db/time-id-cursor';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import type { FilePurpose } from './file-purposes';
import { toStoredFile, type StoredFile } from './stored-file';

export interface FilePageQuery {
  limit: number;
  /** Where the page starts: strictly after this (created_at, id), in the page's order. */
  after: TimeIdPosition | null;
  order: 'asc' | 'desc';
  purpose?: FilePurpose;
}

export interface NewUpload {
  id: string;
  keyId: string;
  accountId: string;
  filename: string;
  /** Empty when the purpose field comes after the file. */
  purpose: FilePurpose | '';
  storageKey: string;
  createdAt: Date;
  /** When the sweep may take the row if the upload never finishes. */
  abandonAt: Date;
}

export interface FinishedUpload {
  purpose: FilePurpose;
  bytes: number;
  mimeType: string;
  sha256: string;
  expiresAt: Date;
}

/**
 * The `files` table. A row is `uploading` while its bytes arrive and
 * `processed` once they are stored; clients see only processed rows that are
 * neither deleted nor expired, and always through their own key.
 */
export class FileStore {
  private readonly prisma: PrismaClient;

  constructor(private readonly db: Pick<Database, 'prisma' | 'query'>) {
    this.prisma = db.prisma;
  }

  /** The row of an upload that has begun: what the sweep finds if the gateway dies before it ends. */
  async insertUploading(upload: NewUpload): Promise<void> {
    await this.prisma.file.create({
      data: {
        id: upload.id, keyId: upload.keyId, accountId: upload.accountId, filename: upload.filename, purpose: upload.purpose,
        storageKey: upload.storageKey, status: 'uploading', createdAt: upload.createdAt, expiresAt: upload.abandonAt,
      },
    });
  }

  /** Makes an upload visible; null when the row is gone (swept after being abandoned). */
  async markProcessed(id: string, done: FinishedUpload): Promise<StoredFile | null> {
    const { count } = await this.prisma.file.updateMany({
      where: { id, status: 'uploading', sweepUntil: null },
      data: { status: 'processed', purpose: done.purpose, bytes: BigInt(done.bytes), mimeType: done.mimeType, sha256: done.sha256, expiresAt: done.expiresAt },
    });
    if (count !== 1) return null;
    const row = await this.prisma.file.findUnique({ where: { id } });
    return row && toStoredFile(row);
  }

  /** Removes a row outright (an upload that failed, once its bytes are gone). */
  async remove(id: string): Promise<void> {
    await this.prisma.file.deleteMany({ where: { id } });
  }

  /** A file its key may read: processed, not deleted, not expired. */
  async findVisible(keyId: string, id: string, now = new Date()): Promise<StoredFile | null> {
    const row = await this.prisma.file.findFirst({ where: { id, ...visibleTo(keyId, now) } });
    return row && toStoredFile(row);
  }

  /** A page of the key's visible files, each with its position written as `cursor` writes it. */
  async page(keyId: string, query: FilePageQuery, cursor: Cursor<TimeIdPosition>, now = new Date()): Promise<Page<StoredFile>> {
    const where: Prisma.FileWhereInput = visibleTo(keyId, now);
    if (query.purpose) where.purpose = query.purpose;
    if (query.after) {
      const { createdAt, id } = query.after;
      const beyond = query.order === 'desc' ? 'lt' : 'gt';
      where.OR = [{ createdAt: { [beyond]: createdAt } }, { createdAt, id: { [beyond]: id } }];
    }
    const rows = await this.prisma.file.findMany({
      where,
      orderBy: [{ createdAt: query.order }, { id: query.order }],
      take: query.limit + 1,
    });
    return pageOf(rows, query.limit, toStoredFile, cursor.encode);
  }

  /**
   * Takes a file from its key at once (deleted, and due for the sweep);
   * returns it, or null when the key has no such visible file. The caller
   * then removes the bytes and the row; if it cannot, the sweep does.
   */
  async markDeleted(keyId: string, id: string, now = new Date()): Promise<StoredFile | null> {
    const { count } = await this.prisma.file.updateMany({ where: { id, ...visibleTo(keyId, now) }, data: { deletedAt: now, expiresAt: now } });
    if (count !== 1) return null;
    const row = await this.prisma.file.findUnique({ where: { id } });
    return row && toStoredFile(row);
  }

  /**
   * Claims up to `limit` rows whose time is up (expired, deleted, or an
   * upload abandoned) for `leaseMs`, so that instances sweeping at the same
   * time take disjoint rows and a sweeper that dies lets another take them
   * when the claim runs out.
   */
  async claimDue(limit: number, leaseMs: number): Promise<Array<{ id: string; storageKey: string }>> {
    const { rows } = await this.db.query<{ id: string; storage_key: string }>(
      `UPDATE "files" SET "sweep_until" = now() + make_interval(secs => $1::double precision / 1000)
       WHERE "id" IN (
         SELECT "id" FROM "files"
         WHERE "expires_at" <= now() AND ("sweep_until" IS NULL OR "sweep_until" < now())
         ORDER BY "expires_at" LIMIT $2
         FOR UPDATE SKIP LOCKED)
       RETURNING "id", "storage_key"`,
      [leaseMs, limit],
    );
    return rows.map((r) => ({ id: r.id, storageKey: r.storage_key }));
  }

  /** Removes swept rows whose bytes are gone. */
  async removeAll(ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const { count } = await this.prisma.file.deleteMany({ where: { id: { in: ids } } });
    return count;
  }
}

function visibleTo(keyId: string, now: Date): Prisma.FileWhereInput {
  return { keyId, status: 'processed', deletedAt: null, expiresAt: { gt: now } };
}
