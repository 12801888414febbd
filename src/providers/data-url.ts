/**
 * Data URLs and https URLs of any size, read without a regular expression
 * that spans the payload: V8 keeps a backtracking entry per character for
 * a pattern such as `^data:…;base64,[A-Za-z0-9+/=]+$`, and a payload of a
 * few megabytes exhausts its stack ("Maximum call stack size exceeded"),
 * depending on how deep the call already is. Here the short head is matched
 * by a pattern and the payload is searched for its first bad character,
 * which needs no backtracking at all.
 */

/** `data:<type>/<subtype>[;param=value]*;base64,` */
const HEAD = /^data:([\w.+-]+\/[\w.+-]+)(?:;[\w.+-]+=[\w.+-]+)*;base64,$/i;
const LONGEST_HEAD = 256;
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;
const NOT_BASE64_OR_SPACE = /[^A-Za-z0-9+/=\s]/;

/** A base64 data URL taken apart: its media type (lower case) and its payload, whitespace removed; undefined for anything else. */
export function parseDataUrl(url: string): { mediaType: string; base64: string } | undefined {
  const mediaType = dataUrlMediaType(url);
  if (mediaType === undefined) return undefined;
  const payload = url.slice(url.indexOf(',') + 1);
  return { mediaType, base64: /\s/.test(payload) ? payload.replace(/\s/g, '') : payload };
}

/**
 * Whether `url` is a base64 data URL whose media type `acceptType` takes
 * and whose payload is base64 (whitespace allowed only when asked; empty
 * only when asked).
 */
export function isBase64DataUrl(url: string, acceptType: (mediaType: string) => boolean, options: { whitespace?: boolean; empty?: boolean } = {}): boolean {
  const mediaType = dataUrlMediaType(url);
  if (mediaType === undefined || !acceptType(mediaType)) return false;
  const payload = url.slice(url.indexOf(',') + 1);
  if (!payload) return Boolean(options.empty);
  return !(options.whitespace ? NOT_BASE64_OR_SPACE : NOT_BASE64).test(payload);
}

/** Whether `url` is an https URL without whitespace, at most `maxLength` characters. */
export function isHttpsUrl(url: string, maxLength = Infinity): boolean {
  return url.length > 'https://'.length && url.length <= maxLength && /^https:\/\//i.test(url) && !/\s/.test(url);
}

function dataUrlMediaType(url: string): string | undefined {
  const comma = url.indexOf(',');
  if (comma < 0 || comma >= LONGEST_HEAD) return undefined;
  return HEAD.exec(url.slice(0, comma + 1))?.[1]?.toLowerCase();
}
