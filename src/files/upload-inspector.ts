import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { MAGIC_BYTES_NEEDED } from './magic-bytes';

/**
 * Watches an upload's bytes on their way to the storage: counts them,
 * hashes them (SHA-256), and hands the first bytes to `onHead` as soon as
 * there are enough to judge the type (or at the end, for a shorter file).
 * An exception from `onHead` fails the stream at once, so a refused file
 * (a program, a vision file that is no image) stops before the rest of it
 * is stored.
 */
export class UploadInspector extends Transform {
  bytes = 0;
  head: Buffer = Buffer.alloc(0);
  private readonly hash = createHash('sha256');
  private headJudged = false;

  constructor(private readonly onHead: (head: Buffer) => void) {
    super();
  }

  /** The SHA-256 of every byte that passed, hex; call once the stream ended. */
  sha256(): string {
    return this.hash.digest('hex');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    if (!this.headJudged) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, MAGIC_BYTES_NEEDED - this.head.length)]);
      if (this.head.length >= MAGIC_BYTES_NEEDED) {
        const refusal = this.judgeHead();
        if (refusal) return callback(refusal);
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.headJudged ? null : this.judgeHead());
  }

  private judgeHead(): Error | null {
    this.headJudged = true;
    try {
      this.onHead(this.head);
      return null;
    } catch (err) {
      return err as Error;
    }
  }
}
