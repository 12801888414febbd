import { randomBytes } from 'node:crypto';

/**
 * A `multipart/form-data` body, built whole: the Videos API takes its
 * fields, and the optional `input_reference` image, this way.
 * @see https://www.rfc-editor.org/rfc/rfc7578
 */
export interface FormFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

export function encodeMultipartForm(fields: Record<string, string>, files: Record<string, FormFile> = {}): { contentType: string; body: Buffer } {
  const boundary = `----gateway-form-${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(name)}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, file] of Object.entries(files)) {
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(name)}"; filename="${escapeQuoted(file.filename)}"\r\n` +
      `Content-Type: ${file.contentType}\r\n\r\n`;
    parts.push(Buffer.from(head), file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

/** Quotes, CR and LF percent-encoded, as browsers and undici's FormData do. */
function escapeQuoted(text: string): string {
  return text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
