import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { byteLimit } from './byte-limit';
import { ByteLimitExceededError, StoredObjectMissingError, type FileStorage, type PutOptions, type StoredRange } from './file-storage';

export interface S3FileStorageOptions {
  bucket: string;
  /** Prepended to every key (`files/` by default), so one bucket can hold other things. */
  keyPrefix: string;
  /** Multipart part size; S3 takes 5 MiB at least. Memory per upload is about partSize x queueSize. */
  partSize?: number;
  queueSize?: number;
}

/**
 * Files as objects in an S3 (or S3-compatible) bucket. A put streams through
 * `Upload` of @aws-sdk/lib-storage: one PutObject for a small file, a
 * multipart upload for a large one, so the gateway holds at most a few parts
 * in memory. An object appears only when the upload completes; a failed or
 * aborted one is aborted at S3 (a gateway killed mid-upload leaves an
 * incomplete multipart upload, which a bucket lifecycle rule
 * `AbortIncompleteMultipartUpload` clears).
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3';

  constructor(
    private readonly client: S3Client,
    private readonly options: S3FileStorageOptions,
  ) {}

  async put(body: Readable, key: string, options: PutOptions): Promise<{ bytes: number }> {
    const limiter = byteLimit(options.maxBytes);
    let overLimit: ByteLimitExceededError | undefined;
    limiter.once('error', (err) => {
      if (err instanceof ByteLimitExceededError) overLimit = err;
    });
    // A failure anywhere ends the stream Upload reads with an error: Upload then aborts the multipart upload itself before it rejects.
    body.once('error', (err) => limiter.destroy(err));
    const onAbort = () => limiter.destroy(options.signal?.reason instanceof Error ? options.signal.reason : new Error('upload aborted'));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    body.pipe(limiter);
    try {
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.options.bucket, Key: this.objectKey(key), Body: limiter },
        partSize: this.options.partSize ?? 8 * 1024 * 1024,
        queueSize: this.options.queueSize ?? 2,
        leavePartsOnError: false,
      });
      await upload.done();
      return { bytes: limiter.bytes };
    } catch (err) {
      // Upload may report a failed abort of the multipart upload instead of what failed first: too many bytes stays too many bytes.
      throw overLimit ?? err;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  async get(key: string, range?: StoredRange): Promise<Readable> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      // In Node the body is the HTTP response itself: streamed, never buffered.
      return object.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new StoredObjectMissingError(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    return `${this.options.keyPrefix}${key}`;
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
