import { mimeTypeFromMagic } from './magic-bytes';
import { mimeTypeFromExtension } from './file-names';

export const UNKNOWN_MIME_TYPE = 'application/octet-stream';

/**
 * The media type stored with a file and sent with its content: what the
 * bytes prove first (PDF, PNG, JPEG, GIF, WebP), else what a document's
 * extension names, else `application/octet-stream`.
 */
export function detectMimeType(head: Buffer, filename: string): string {
  return mimeTypeFromMagic(head) ?? mimeTypeFromExtension(filename) ?? UNKNOWN_MIME_TYPE;
}
