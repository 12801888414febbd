import type { Readable } from 'node:stream';

/** Bytes `start`..`end` of an object, both inclusive (as HTTP ranges count). */
export interface StoredRange {
  start: number;
  end: number;
}

export interface PutOptions {
  /** The most bytes the object may have; one more fails the put with ByteLimitExceededError. */
  maxBytes: number;
  /** Aborting fails the put and removes what was written. */
  signal?: AbortSignal;
}

/**
 * Where uploaded files' bytes live, by key. A put is all or nothing: until it
 * resolves nobody sees the object, and when it fails (too large, aborted,
 * the stream broke) nothing of it stays. Implementations: a local folder
 * (local-file-storage.ts) and S3 (s3-file-storage.ts).
 */
export interface FileStorage {
  /** `local` or `s3`, for logs. */
  readonly kind: string;
  /** Streams `body` to the object `key`; resolves with the bytes written. */
  put(body: Readable, key: string, options: PutOptions): Promise<{ bytes: number }>;
  /** The object's bytes, or a range of them; StoredObjectMissingError when there is no such object. */
  get(key: string, range?: StoredRange): Promise<Readable>;
  /** Removes the object (locally also the bytes of an unfinished put); a missing object is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Lets go of connections (the S3 client's); called once at shutdown. */
  close(): Promise<void>;
}

export class StoredObjectMissingError extends Error {
  override readonly name = 'StoredObjectMissingError';
  constructor(readonly key: string) {
    super(`no stored object "${key}"`);
  }
}

export class ByteLimitExceededError extends Error {
  override readonly name = 'ByteLimitExceededError';
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}
