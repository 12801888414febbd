/**
 * The ids the gateway hands out (`req_…`, `video_…`, `key_…`, `file-…`) are
 * letters, digits, `_`, `-` and `.`, at most 128 characters. Anything else,
 * a NUL byte or another control character above all (PostgreSQL refuses
 * those in text), cannot name a row: lookups answer "not found" without
 * asking the database.
 */
const WELL_FORMED_ID = /^[A-Za-z0-9_.-]{1,128}$/;

export function isWellFormedId(id: string): boolean {
  return WELL_FORMED_ID.test(id);
}
