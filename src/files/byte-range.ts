/**
 * A download's `Range` header (RFC 9110 §14), for one byte range. What the
 * gateway answers:
 *   - `full`: no Range, one it does not read (several ranges, another unit,
 *     malformed): 200 with the whole file, as RFC 9110 lets a server do;
 *   - `partial`: 206 with bytes `start`..`end` (inclusive) and Content-Range;
 *   - `unsatisfiable`: the range starts at or past the end (or asks for an
 *     empty suffix): 416 with `Content-Range: bytes * /size`.
 */
export type RangeAnswer = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'full' };
  const match = SINGLE_RANGE.exec(header.replace(/\s+/g, ''));
  if (!match) return { kind: 'full' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  // Digits too many for a safe integer are simply past any file's end.
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

export function contentRange(range: { start: number; end: number }, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}

export function unsatisfiedRange(size: number): string {
  return `bytes */${size}`;
}
