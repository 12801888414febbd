/**
 * Splits text into stream pieces of about `size` UTF-16 units, never between
 * the two halves of a surrogate pair, so that every piece is valid text.
 */
export function splitIntoPieces(text: string, size: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + Math.max(1, size), text.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end++;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
