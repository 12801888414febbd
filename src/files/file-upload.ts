import busboy from 'busboy';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { abandonBody } from '../http/abandon-body';
import type { Principal } from '../keys/principal';
import type { Logger } from '../observability/logger';
import { newFileId } from './file-id';
import { cleanFilename, hasExecutableExtension, MAX_FILENAME_LENGTH } from './file-names';
import { checkPurpose, fileTooLarge, largestLimit, type FileLimits, type FilePurpose } from './file-purposes';
import type { FileStore } from './file-store';
import { executableKind, mimeTypeFromMagic, VISION_MIME_TYPES } from './magic-bytes';
import { detectMimeType } from './mime-type';
import { ByteLimitExceededError, type FileStorage } from './storage/file-storage';
import type { StoredFile } from './stored-file';
import { UploadInspector } from './upload-inspector';

export interface UploadDeps {
  store: FileStore;
  storage: FileStorage;
  limits: FileLimits;
  retentionMs: number;
  logger: Logger;
}

/** An upload row the gateway never finished (it died mid-upload) is swept this long after it began. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/** OpenAI's bounds for `expires_after[seconds]`: an hour to thirty days. */
const EXPIRES_AFTER_SECONDS = { min: 3600, max: 30 * 24 * 3600 };

interface FilePart {
  id: string;
  filename: string;
  createdAt: Date;
  inspector: UploadInspector;
  /** The limit the bytes were streamed under: the purpose's, or the largest when it was not known yet. */
  limit: number;
  rowWritten: Promise<void>;
  stored: Promise<{ bytes: number }>;
}

/**
 * Receives one `POST /v1/files` body: multipart with the fields `purpose`
 * and `file`, in either order. The file streams through the inspector
 * (size, SHA-256, first bytes) straight into the file storage; it is never
 * held whole in memory. What can be refused early is refused the moment it
 * is known (a program's name or first bytes, a vision file that is no
 * image, more bytes than the limit): the rest of the body is abandoned and
 * whatever was stored is removed before the refusal is answered. A body
 * whose `purpose` comes after the file is streamed under the largest limit
 * and judged when the purpose arrives.
 */
export class FileUpload {
  private purpose?: FilePurpose;
  private expiresAfterSeconds?: number;
  private file?: FilePart;
  private failure?: GatewayError;
  private settled = false;
  private readonly abort = new AbortController();
  private resolve!: (file: StoredFile) => void;
  private reject!: (err: unknown) => void;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly principal: Principal,
    private readonly deps: UploadDeps,
  ) {}

  receive(): Promise<StoredFile> {
    const done = new Promise<StoredFile>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    const { req } = this;
    if (req.headers['content-encoding'] && req.headers['content-encoding'] !== 'identity') {
      this.fail(new GatewayError('invalid_multipart', 'Uploads are not taken compressed: send the multipart/form-data body without Content-Encoding.'));
      return done;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fields: 8, parts: 10, fieldSize: 1024, fieldNameSize: 100 } });
    } catch (err) {
      this.fail(new GatewayError('invalid_multipart', `Send the upload as multipart/form-data with the fields "purpose" and "file" (${(err as Error).message}).`));
      return done;
    }
    parser.on('field', (name, value, info) => this.onField(name, value, info.valueTruncated));
    parser.on('file', (name, stream, info) => this.onFile(name, stream, info.filename));
    parser.on('filesLimit', () => this.fail(new GatewayError('too_many_files', 'An upload holds one file, in the field "file".', { param: 'file' })));
    parser.on('fieldsLimit', () => this.fail(new GatewayError('invalid_multipart', 'Too many fields: an upload takes "purpose", "file" and optionally "expires_after".')));
    parser.on('partsLimit', () => this.fail(new GatewayError('invalid_multipart', 'Too many parts: an upload takes "purpose", "file" and optionally "expires_after".')));
    parser.on('error', (err: Error) => this.fail(this.unreadable(err)));
    parser.on('close', () => void this.onBodyEnd());
    req.on('aborted', () => this.fail(Errors.requestAborted()));
    req.on('close', () => {
      if (!req.complete) this.fail(Errors.requestAborted());
    });
    req.pipe(parser);
    return done;
  }

  private onField(name: string, value: string, truncated: boolean): void {
    if (this.settled) return;
    if (truncated) return this.fail(Errors.validation(name, 'is too long.'));
    if (name === 'purpose') {
      // A second purpose could loosen the limit a file already streamed under.
      if (this.purpose) return this.fail(Errors.validation(name, 'must be given once.'));
      try {
        this.purpose = checkPurpose(value);
      } catch (err) {
        return this.fail(err as GatewayError);
      }
      // When the file came first, its bytes (stored or still arriving) are judged by this purpose once they are all in (onBodyEnd).
      return;
    }
    if (name === 'expires_after[anchor]') {
      // The only anchor there is; the field is checked so that a typo is not taken silently.
      if (value !== 'created_at') return this.fail(Errors.validation(name, 'must be "created_at".'));
      return;
    }
    if (name === 'expires_after[seconds]') {
      const seconds = Number(value);
      if (!Number.isInteger(seconds) || seconds < EXPIRES_AFTER_SECONDS.min || seconds > EXPIRES_AFTER_SECONDS.max) {
        return this.fail(Errors.validation(name, `must be a whole number of seconds from ${EXPIRES_AFTER_SECONDS.min} to ${EXPIRES_AFTER_SECONDS.max}.`));
      }
      this.expiresAfterSeconds = seconds;
      return;
    }
    if (name === 'file') {
      return this.fail(new GatewayError('missing_required_parameter', '"file" must be a file part (with a filename), not a text field: send the bytes as a file.', { param: 'file' }));
    }
    this.fail(Errors.validation(name, 'is not a field of a file upload; send "purpose" and "file" (and optionally "expires_after").'));
  }

  private onFile(name: string, stream: Readable, rawFilename: string | undefined): void {
    // Anything thrown away must still be read, or the parser waits for it forever.
    stream.on('error', () => undefined);
    if (this.settled) return void stream.resume();
    if (name !== 'file') {
      stream.resume();
      return this.fail(Errors.validation(name, 'is not a file field; send the file as "file".'));
    }
    const filename = cleanFilename(rawFilename ?? '');
    if (!filename) return this.fail(new GatewayError('missing_required_parameter', 'The "file" part has no filename; name the file.', { param: 'file' }));
    if (filename.length > MAX_FILENAME_LENGTH) return this.fail(Errors.validation('file', `has a filename longer than ${MAX_FILENAME_LENGTH} characters.`));
    if (hasExecutableExtension(filename)) return this.fail(executableRefusal(`"${filename}" is named like a program`));

    const createdAt = new Date();
    const id = newFileId(createdAt);
    const limit = this.purpose ? this.deps.limits[this.purpose] : largestLimit(this.deps.limits);
    const inspector = new UploadInspector((head) => this.judgeHead(head));
    stream.once('error', (err: Error) => inspector.destroy(this.unreadable(err)));
    stream.pipe(inspector);
    const rowWritten = this.deps.store.insertUploading({
      id, keyId: this.principal.keyId, accountId: this.principal.accountId, filename, purpose: this.purpose ?? '',
      storageKey: id, createdAt, abandonAt: new Date(createdAt.getTime() + ABANDONED_AFTER_MS),
    });
    const stored = this.deps.storage.put(inspector, id, { maxBytes: limit, signal: this.abort.signal });
    this.file = { id, filename, createdAt, inspector, limit, rowWritten, stored };
    // A failure while the rest of the body is still arriving is answered at once, not when the body ends.
    Promise.all([rowWritten, stored]).catch((err) => this.fail(this.storeFailure(err)));
  }

  /** Refuses a program by its first bytes, and a vision file that is no image as soon as both are known. */
  private judgeHead(head: Buffer): void {
    const program = executableKind(head);
    if (program) throw executableRefusal(`its first bytes are a ${program}`);
    if (this.purpose === 'vision' && head.length > 0) checkVisionImage(head);
  }

  private async onBodyEnd(): Promise<void> {
    if (this.settled) return;
    const { file } = this;
    try {
      if (file) await Promise.all([file.rowWritten, file.stored]);
    } catch (err) {
      return this.fail(this.storeFailure(err));
    }
    if (this.settled) return;
    if (!this.purpose) {
      return this.fail(new GatewayError('missing_required_parameter', 'The upload has no "purpose": send "user_data" or "vision" with the file.', { param: 'purpose' }));
    }
    if (!file) return this.fail(new GatewayError('missing_required_parameter', 'The upload has no "file": send the bytes as a file part named "file".', { param: 'file' }));
    const { inspector } = file;
    if (inspector.bytes === 0) return this.fail(new GatewayError('missing_required_parameter', 'The uploaded "file" is empty: send a file with content.', { param: 'file' }));
    // The purpose came after the file: the checks its bytes streamed without.
    if (inspector.bytes > this.deps.limits[this.purpose]) return this.fail(fileTooLarge(this.purpose, this.deps.limits[this.purpose]));
    if (this.purpose === 'vision') {
      try {
        checkVisionImage(inspector.head);
      } catch (err) {
        return this.fail(err as GatewayError);
      }
    }
    try {
      const stored = await this.deps.store.markProcessed(file.id, {
        purpose: this.purpose,
        bytes: inspector.bytes,
        mimeType: detectMimeType(inspector.head, file.filename),
        sha256: inspector.sha256(),
        expiresAt: this.expiresAt(file),
      });
      if (!stored) throw new Error(`the upload row of ${file.id} was gone when its bytes were in`);
      this.settled = true;
      this.deps.logger.info('file uploaded', { file_id: stored.id, key_id: this.principal.keyId, purpose: stored.purpose, bytes: stored.bytes, mime_type: stored.mimeType, storage: this.deps.storage.kind });
      this.resolve(stored);
    } catch (err) {
      this.fail(err);
    }
  }

  /** The retention, or the client's shorter `expires_after`, from the upload's start. */
  private expiresAt(file: FilePart): Date {
    const asked = this.expiresAfterSeconds === undefined ? Infinity : this.expiresAfterSeconds * 1000;
    return new Date(file.createdAt.getTime() + Math.min(asked, this.deps.retentionMs));
  }

  /**
   * Ends the upload with `err`: stops reading the body, removes whatever
   * was stored and the row, then rejects (so the refusal is answered once
   * nothing of the file is left).
   */
  private fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.failure = err instanceof GatewayError ? err : undefined;
    abandonBody(this.req, this.res);
    this.abort.abort(err);
    void this.discardFile().then(() => this.reject(err));
  }

  private async discardFile(): Promise<void> {
    const { file } = this;
    if (!file) return;
    file.inspector.destroy();
    await Promise.allSettled([file.rowWritten, file.stored]);
    try {
      await this.deps.storage.delete(file.id);
      await this.deps.store.remove(file.id);
    } catch (err) {
      // The row stays `uploading` and the sweep removes bytes and row later.
      this.deps.logger.error('failed upload not cleaned up; the file sweep will', { file_id: file.id, err });
    }
  }

  /** What a failed store means to the client. */
  private storeFailure(err: unknown): unknown {
    if (this.failure) return this.failure;
    if (err instanceof GatewayError) return err;
    if (err instanceof ByteLimitExceededError) return fileTooLarge(this.purpose, err.maxBytes);
    this.deps.logger.error('file storage failed during an upload', { storage: this.deps.storage.kind, err });
    return new GatewayError('file_storage_unavailable', 'The file could not be stored. Retry in a moment.', { retryAfterSeconds: 5 });
  }

  private unreadable(err: Error): GatewayError {
    return this.req.complete || !this.req.destroyed
      ? new GatewayError('invalid_multipart', `The multipart body cannot be read: ${err.message}`)
      : Errors.requestAborted();
  }
}

function executableRefusal(why: string): GatewayError {
  return new GatewayError('executable_file_not_allowed', `The file was refused: ${why}. Programs and installers are not taken for any purpose.`, { param: 'file' });
}

function checkVisionImage(head: Buffer): void {
  const type = mimeTypeFromMagic(head);
  if (type && VISION_MIME_TYPES.has(type)) return;
  throw new GatewayError(
    'unsupported_file_type',
    'A "vision" file must be a PNG, JPEG, GIF or WebP image (its bytes are not one). Upload other files with purpose "user_data".',
    { param: 'file' },
  );
}
