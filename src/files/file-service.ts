import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { GatewayError } from '../errors/gateway-error';
import { decodeCursor, type Cursor, type Page } from '../db/page';
import type { TimeIdPosition } from '../db/time-id-cursor';
import { isWellFormedId } from '../db/well-formed-id';
import type { Principal } from '../keys/principal';
import type { Logger } from '../observability/logger';
import { isFilePurpose, type FileLimits } from './file-purposes';
import type { FileStore } from './file-store';
import { FileUpload } from './file-upload';
import { StoredObjectMissingError, type FileStorage, type StoredRange } from './storage/file-storage';
import type { StoredFile } from './stored-file';

export type { StoredFile } from './stored-file';

export interface FileServiceOptions {
  store: FileStore;
  storage: FileStorage;
  limits: FileLimits;
  /** How long a file is kept (GATEWAY_FILE_RETENTION_DAYS). */
  retentionMs: number;
  logger: Logger;
}

/** A request for a page of the key's files; `after` is a cursor of the dialect the caller lists with. */
export interface FileListQuery {
  limit: number;
  after: string | null;
  order: 'asc' | 'desc';
  /** Only files of this purpose; a purpose no file can have lists nothing. */
  purpose?: string;
}

export interface FileSweepResult {
  /** Files whose bytes and row were removed. */
  removed: number;
  /** Files whose bytes could not be removed this time; their claim runs out and a later sweep tries again. */
  failed: number;
  /** Whether a full batch was claimed (more may be due). */
  more: boolean;
}

/** How long a sweeper holds the files it claimed before another may take them. */
const SWEEP_LEASE_MS = 5 * 60 * 1000;

/**
 * Uploaded files: upload, list, read, download, delete, and the sweep of
 * expired ones. Every read is scoped to the key that uploaded the file:
 * another key's file, a deleted one and an expired one (even before the sweep
 * removed it) all answer 404 `file_not_found`, exactly like a missing one.
 * The Responses capability reads files through `findOwned`, `verifiedContent`
 * and `readContent`.
 */
export class FileService {
  constructor(private readonly options: FileServiceOptions) {}

  get limits(): FileLimits {
    return this.options.limits;
  }

  /** Receives a multipart upload (see file-upload.ts) and returns the stored file. */
  upload(principal: Principal, req: IncomingMessage, res: ServerResponse): Promise<StoredFile> {
    return new FileUpload(req, res, principal, this.options).receive();
  }

  /** A page of the key's files, with positions written and read in `cursor`'s dialect (OpenAI's file ids, or the opaque time and id). */
  async list(principal: Principal, query: FileListQuery, cursor: Cursor<TimeIdPosition>): Promise<Page<StoredFile>> {
    const after = query.after === null ? null : decodeCursor(cursor, query.after);
    if (query.purpose !== undefined && !isFilePurpose(query.purpose)) return { items: [], cursors: [], hasMore: false };
    return this.options.store.page(principal.keyId, { limit: query.limit, after, order: query.order, purpose: query.purpose }, cursor);
  }

  /** The key's file, or null when it is missing, expired, deleted or another key's. */
  async find(principal: Principal, id: string): Promise<StoredFile | null> {
    if (!isWellFormedId(id)) return null;
    return this.options.store.findVisible(principal.keyId, id);
  }

  /** The key's file, or 404 `file_not_found` when it is missing, expired, deleted or another key's. */
  async findOwned(principal: Principal, id: string): Promise<StoredFile> {
    const file = await this.find(principal, id);
    if (!file) throw fileNotFound(id);
    return file;
  }

  /** A stream of the file's bytes (or a range of them), straight from the storage. */
  async openContent(file: StoredFile, range?: StoredRange): Promise<Readable> {
    try {
      return await this.options.storage.get(file.storageKey, range);
    } catch (err) {
      // Deleted a moment ago (the row was read just before): gone, as far as the client can tell.
      if (err instanceof StoredObjectMissingError) throw fileNotFound(file.id);
      this.options.logger.error('file storage read failed', { file_id: file.id, storage: this.options.storage.kind, err });
      throw storageUnavailable();
    }
  }

  /**
   * A file's bytes as they are read from storage, checked against the size
   * and SHA-256 taken at upload: bytes that differ fail the iteration at
   * their end (file_storage_unavailable). Each iteration reads anew. For
   * callers that send files on (the Responses capability streams them
   * upstream); downloads stream the storage as it is.
   */
  async *verifiedContent(file: StoredFile): AsyncGenerator<Buffer> {
    const stream = await this.openContent(file);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      hash.update(chunk);
      yield chunk;
    }
    if (bytes !== file.bytes || hash.digest('hex') !== file.sha256) {
      this.options.logger.error('stored file bytes differ from those uploaded', { file_id: file.id, bytes, expected_bytes: file.bytes });
      throw storageUnavailable();
    }
  }

  /** All of a file's bytes, checked as `verifiedContent` checks them, for callers that need them whole. */
  async readContent(file: StoredFile): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.verifiedContent(file)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** Deletes the key's file: gone for the client at once, its bytes removed before this returns (or by the sweep, if the storage fails). */
  async delete(principal: Principal, id: string): Promise<StoredFile> {
    const file = isWellFormedId(id) ? await this.options.store.markDeleted(principal.keyId, id) : null;
    if (!file) throw fileNotFound(id);
    try {
      await this.options.storage.delete(file.storageKey);
      await this.options.store.removeAll([file.id]);
    } catch (err) {
      this.options.logger.warn('deleted file not removed yet; the file sweep will', { file_id: file.id, err });
    }
    this.options.logger.info('file deleted', { file_id: file.id, key_id: principal.keyId });
    return file;
  }

  /**
   * Removes up to `batch` files whose time is up (expired, deleted, or an
   * upload that never finished): bytes first, then the row, so a storage
   * failure leaves the row for a later sweep instead of orphaned bytes.
   * Safe on several instances at once (rows are claimed, see FileStore.claimDue).
   */
  async sweep(batch = 100): Promise<FileSweepResult> {
    const due = await this.options.store.claimDue(batch, SWEEP_LEASE_MS);
    const gone: string[] = [];
    let failed = 0;
    for (const file of due) {
      try {
        await this.options.storage.delete(file.storageKey);
        gone.push(file.id);
      } catch (err) {
        failed++;
        this.options.logger.warn('file sweep could not remove bytes; retrying later', { file_id: file.id, storage: this.options.storage.kind, err });
      }
    }
    const removed = await this.options.store.removeAll(gone);
    return { removed, failed, more: due.length === batch };
  }
}

export function fileNotFound(id: string): GatewayError {
  return new GatewayError('file_not_found', `No file "${id.slice(0, 128)}" for this API key (files expire, and a deleted file is gone). GET /v1/files lists this key's files.`, {
    param: 'file_id',
  });
}

function storageUnavailable(): GatewayError {
  return new GatewayError('file_storage_unavailable', 'The file storage could not be read. Retry in a moment.', { retryAfterSeconds: 5 });
}
