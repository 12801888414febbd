import { GatewayError } from '../errors/gateway-error';

/** The purposes the gateway keeps files for; the Responses capability reads both. */
export const FILE_PURPOSES = ['user_data', 'vision'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

/** Largest file per purpose, in bytes (GATEWAY_FILE_MAX_USER_DATA_BYTES, GATEWAY_FILE_MAX_VISION_BYTES). */
export type FileLimits = Readonly<Record<FilePurpose, number>>;

export const DEFAULT_FILE_LIMITS: FileLimits = { user_data: 512 * 1024 * 1024, vision: 20 * 1024 * 1024 };

export function isFilePurpose(value: string): value is FilePurpose {
  return (FILE_PURPOSES as readonly string[]).includes(value);
}

/** The purpose as given, or 400 `purpose_not_supported` (OpenAI's `batch`, `fine-tune`, `assistants`, ... have no use here). */
export function checkPurpose(value: string): FilePurpose {
  if (isFilePurpose(value)) return value;
  throw new GatewayError(
    'purpose_not_supported',
    `The purpose "${value.slice(0, 64)}" is not supported: upload with purpose "user_data" (documents, up to the user_data limit) or "vision" (PNG, JPEG, GIF or WebP images).`,
    { param: 'purpose' },
  );
}

/** The largest file any purpose takes: the limit while the purpose is not known yet. */
export function largestLimit(limits: FileLimits): number {
  return Math.max(...FILE_PURPOSES.map((p) => limits[p]));
}

export function fileTooLarge(purpose: FilePurpose | undefined, limit: number): GatewayError {
  return new GatewayError(
    'file_too_large',
    `The file is larger than ${limit} bytes, the most ${purpose ? `purpose "${purpose}"` : 'any purpose'} takes. Upload a smaller file (split it, or compress images).`,
    { param: 'file', details: { max_bytes: limit, ...(purpose ? { purpose } : {}) } },
  );
}
