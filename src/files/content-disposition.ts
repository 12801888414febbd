/**
 * `Content-Disposition: attachment` for a download, with the stored name
 * carried safely (RFC 6266): `filename*` holds the exact name, UTF-8 and
 * percent-encoded (RFC 8187), and `filename` an ASCII stand-in for old
 * clients. Nothing a client chose as a name can break out of the header
 * (quotes, backslashes, CR/LF, `;`).
 */
export function attachmentDisposition(filename: string): string {
  return `attachment; filename="${asciiFallback(filename)}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}

/** Printable ASCII but `"` and `\`, each other character as `_`; never empty. */
function asciiFallback(filename: string): string {
  const ascii = Array.from(filename, (ch) => (/^[\x20-\x7e]$/.test(ch) && ch !== '"' && ch !== '\\' ? ch : '_')).join('');
  return ascii || 'file';
}

/** RFC 8187 `attr-char`s stay as they are; every other byte of the UTF-8 is `%XX`. */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

function encodeExtValue(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
