import busboy from 'busboy';
import type { Request } from 'express';
import { Errors, GatewayError } from './errors';

export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

export function isMultipart(req: Request): boolean {
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
      reject(new GatewayError(400, 'invalid_multipart', `The multipart body cannot be read: ${(err as Error).message}`));
      return;
    }
    const body: MultipartBody = { fields: {}, files: {} };
    let failure: GatewayError | undefined;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) failure ??= Errors.validation(name, 'is too long.');
      body.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (!options.fileFields.includes(name)) {
        failure ??= Errors.validation(name, `is not a file field; files go in ${options.fileFields.map((f) => `"${f}"`).join(', ')}.`);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure ??= new GatewayError(413, 'file_too_large', `"${name}" is larger than ${options.maxFileBytes} bytes.`, { param: name });
      });
      stream.on('end', () => {
        body.files[name] = { filename: info.filename ?? name, contentType: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('filesLimit', () => (failure ??= new GatewayError(400, 'too_many_files', 'Too many files in the multipart body.')));
    parser.on('error', (err) => reject(new GatewayError(400, 'invalid_multipart', `The multipart body cannot be read: ${(err as Error).message}`)));
    parser.on('close', () => (failure ? reject(failure) : resolve(body)));
    req.pipe(parser);
  });
}
