import type { File as FileRow } from '../generated/prisma/client';
import type { FilePurpose } from './file-purposes';

/**
 * An uploaded file as the rest of the gateway sees it: the Files routes, the
 * GraphQL resolvers, and the Responses capability, which reads the bytes of
 * the files a request names (`FileService.readContent`).
 */
export interface StoredFile {
  id: string;
  filename: string;
  purpose: FilePurpose;
  bytes: number;
  /** Detected from the bytes (or a document's extension), never the client's Content-Type. */
  mimeType: string;
  createdAt: Date;
  expiresAt: Date;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
  /** The key that uploaded it: the only one that reads it. */
  keyId: string;
  /** Where the bytes are in the file storage. */
  storageKey: string;
}

export function toStoredFile(row: FileRow): StoredFile {
  return {
    id: row.id,
    filename: row.filename,
    purpose: row.purpose as FilePurpose,
    bytes: Number(row.bytes),
    mimeType: row.mimeType,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    sha256: row.sha256,
    keyId: row.keyId,
    storageKey: row.storageKey,
  };
}

/** OpenAI's file object, which the `openai` SDKs read. */
export interface FileObject {
  id: string;
  object: 'file';
  bytes: number;
  filename: string;
  purpose: FilePurpose;
  status: 'processed';
  created_at: number;
  expires_at: number;
  status_details: null;
}

export function toFileObject(file: StoredFile): FileObject {
  return {
    id: file.id,
    object: 'file',
    bytes: file.bytes,
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed',
    created_at: unixSeconds(file.createdAt),
    expires_at: unixSeconds(file.expiresAt),
    status_details: null,
  };
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
