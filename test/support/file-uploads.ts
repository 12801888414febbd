import { request } from 'node:http';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Bytes that start like a PDF. */
export function pdfBytes(size = 4096): Buffer {
  const head = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
  const body = Buffer.alloc(Math.max(0, size - head.length), 'x');
  return Buffer.concat([head, body]).subarray(0, size);
}

/** A 1x1 PNG (a real one: signature, IHDR, IDAT, IEND). */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** `size` bytes where byte i is i % 251: any shift or loss shows. */
export function patternBytes(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = i % 251;
  return out;
}

/** A multipart body with its parts in the order given (fields as text, files with a filename). */
export function multipartBody(parts: Array<{ name: string; value: string } | { name: string; filename: string; data: Buffer; type?: string }>, boundary = 'GatewayTestBoundary7MA4YWxk'): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`));
      chunks.push(part.data, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface RawAnswer {
  status: number;
  body: any;
  /** Bytes the client had written when the answer's head arrived. */
  sentWhenAnswered: number;
}

/**
 * Sends an upload the way a slow client does: the head of a multipart body,
 * then file bytes in `chunkBytes` pieces for as long as no answer has come,
 * up to `totalFileBytes`, pausing `pauseMs` between pieces. `abortAfterBytes`
 * cuts the connection instead.
 */
export function trickleUpload(
  url: string,
  key: string,
  opts: { purpose?: string; filename: string; totalFileBytes: number; chunkBytes?: number; pauseMs?: number; abortAfterBytes?: number },
): Promise<RawAnswer | 'aborted'> {
  const boundary = 'TrickleBoundary9f3a';
  const head = Buffer.from(
    (opts.purpose ? `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${opts.purpose}\r\n` : '') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(opts.chunkBytes ?? 64 * 1024, 'a');
  return new Promise((resolve) => {
    const target = new URL(`${url}/v1/files`);
    let sent = 0;
    let answered = false;
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' } },
      (res) => {
        answered = true;
        const sentWhenAnswered = sent;
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, sentWhenAnswered });
        });
      },
    );
    req.on('error', () => {
      if (!answered) resolve('aborted');
    });
    req.write(head);
    let fileSent = 0;
    const pump = () => {
      if (answered || req.destroyed) return;
      if (opts.abortAfterBytes !== undefined && fileSent >= opts.abortAfterBytes) {
        req.destroy();
        return;
      }
      if (fileSent >= opts.totalFileBytes) {
        req.end(tail);
        return;
      }
      const piece = chunk.subarray(0, Math.min(chunk.length, opts.totalFileBytes - fileSent));
      fileSent += piece.length;
      sent += piece.length;
      req.write(piece, () => setTimeout(pump, opts.pauseMs ?? 5));
    };
    pump();
  });
}

/** What the local file storage holds: visible objects and unfinished (partial) ones. */
export function localStoredFiles(dataDir: string): { objects: string[]; partial: string[] } {
  const root = path.join(dataDir, 'files');
  if (!existsSync(root)) return { objects: [], partial: [] };
  const partialDir = path.join(root, '.partial');
  return {
    objects: readdirSync(root).filter((name) => name !== '.partial'),
    partial: existsSync(partialDir) ? readdirSync(partialDir) : [],
  };
}
