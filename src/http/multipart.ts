import busboy from 'busboy';
import type { Request } from 'express';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';

export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

export function isMultipart(req: Pick<Request, 'headers'>): boolean {
  return /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');
}

/**
 * Reads a multipart/form-data body: text fields, and files only under the
 * names in `fileFields` (others are refused), each at most `maxFileBytes`.
 */
export function readMultipart(req: Request, options: { fileFields: string[]; maxFileBytes: number; maxFields?: number }): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: options.maxFileBytes, files: options.fileFields.length, fields: options.maxFields ?? 50, fieldSize: 1024 * 1024 } });
    } catch (err) {
      reject(new GatewayError('invalid_multipart', `The multipart body cannot be read: ${(err as Error).message}`));
      return;
    }
    const body: MultipartBody = { fields: {}, files: {} };
    let failure: GatewayError | undefined;
    let settled = false;
    const finish = (err?: GatewayError) => {
      if (settled) return;
      settled = true;
      if (err) {
        req.unpipe(parser);
        req.resume();
        reject(err);
      } else resolve(body);
    };
    const malformed = (err: Error) => new GatewayError('invalid_multipart', `The multipart body cannot be read: ${err.message}`);
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) failure ??= Errors.validation(name, 'is too long.');
      body.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      // A body cut off inside a file part errors this stream; unhandled, it would take the process down.
      stream.on('error', (err: Error) => finish(malformed(err)));
      if (!options.fileFields.includes(name)) {
        failure ??= Errors.validation(name, `is not a file field; files go in ${options.fileFields.map((f) => `"${f}"`).join(', ')}.`);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure ??= new GatewayError('file_too_large', `"${name}" is larger than ${options.maxFileBytes} bytes.`, { param: name });
      });
      stream.on('end', () => {
        body.files[name] = { filename: info.filename ?? name, contentType: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('filesLimit', () => (failure ??= new GatewayError('too_many_files', 'Too many files in the multipart body.')));
    parser.on('error', (err) => finish(malformed(err as Error)));
    parser.on('close', () => finish(failure));
    // A client gone mid-upload ends nothing by itself: settle, so the request is answered and recorded.
    req.on('aborted', () => finish(new GatewayError('request_aborted', 'The client closed the connection while sending the body.')));
    req.on('error', (err) => finish(malformed(err)));
    req.pipe(parser);
  });
}
