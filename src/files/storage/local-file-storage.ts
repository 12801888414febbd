import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteLimit } from './byte-limit';
import { StoredObjectMissingError, type FileStorage, type PutOptions, type StoredRange } from './file-storage';

/** Keys are the gateway's own ids; anything that could climb out of the folder is refused outright. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * Files in a folder on the local disk (`GATEWAY_DATA_DIR/files` by default):
 * one instance, or several sharing a network volume. A put writes
 * `.partial/<key>`, flushes it to disk and renames it into place, so a half
 * written file is never visible under its key, and `delete` removes both.
 */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'local';

  private constructor(private readonly root: string) {}

  static async open(root: string): Promise<LocalFileStorage> {
    await mkdir(path.join(root, '.partial'), { recursive: true });
    return new LocalFileStorage(root);
  }

  async put(body: Readable, key: string, options: PutOptions): Promise<{ bytes: number }> {
    const partial = this.partialPath(key);
    const limiter = byteLimit(options.maxBytes);
    try {
      await pipeline(body, limiter, createWriteStream(partial, { flags: 'wx' }), { signal: options.signal });
      // On disk before the row says the file is there: a crash after the commit must not lose it.
      const handle = await open(partial, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(partial, this.finalPath(key));
      return { bytes: limiter.bytes };
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: StoredRange): Promise<Readable> {
    let handle;
    try {
      // Opened before reading: a delete that comes in the meantime cannot cut the download short.
      handle = await open(this.finalPath(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StoredObjectMissingError(key);
      throw err;
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    await rm(this.finalPath(key), { force: true });
    await rm(this.partialPath(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.finalPath(key))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async close(): Promise<void> {}

  private finalPath(key: string): string {
    return path.join(this.root, checkedKey(key));
  }

  private partialPath(key: string): string {
    return path.join(this.root, '.partial', checkedKey(key));
  }
}

function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key "${key}"`);
  return key;
}
