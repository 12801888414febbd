import { randomBytes } from 'node:crypto';

/**
 * File ids: `file-` then the upload time in milliseconds (12 hex digits) and
 * 80 random bits (20 hex digits). The time in front lets a file id serve as
 * the list cursor OpenAI clients send (`after` = the last id they saw) without
 * a lookup, and keeps working when that file has since been deleted.
 */
const FILE_ID = /^file-([0-9a-f]{12})[0-9a-f]{20}$/;

export function newFileId(createdAt: Date): string {
  return `file-${createdAt.getTime().toString(16).padStart(12, '0')}${randomBytes(10).toString('hex')}`;
}

/** The upload time a file id carries, or undefined when it is not an id this gateway makes. */
export function fileIdTime(id: string): Date | undefined {
  const match = FILE_ID.exec(id);
  return match ? new Date(parseInt(match[1], 16)) : undefined;
}
