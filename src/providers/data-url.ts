/** A base64 data URL taken apart: its media type (lower case) and its base64 payload, whitespace removed. */
export function parseDataUrl(url: string): { mediaType: string; base64: string } | undefined {
  const match = /^data:([\w.+-]+\/[\w.+-]+);base64,(.*)$/is.exec(url);
  return match ? { mediaType: match[1]!.toLowerCase(), base64: match[2]!.replace(/\s+/g, '') } : undefined;
}
