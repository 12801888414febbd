import { restRequest } from './rest-request';

/**
 * Downloads a gateway resource that needs the API key (a file's or a
 * video's content): the browser cannot put an Authorization header on a
 * plain link, so the bytes are fetched, then handed to the browser's own
 * download as a blob URL under the name the gateway gave
 * (Content-Disposition), or `fallbackName`.
 */
export async function saveDownload(path: string, key: string, fallbackName: string): Promise<void> {
  const res = await restRequest(path, key);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = attachmentName(res.headers.get('content-disposition')) ?? fallbackName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The download has taken the bytes once click() returns; a moment later the URL may go.
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** The file name of `Content-Disposition: attachment`: `filename*` (RFC 6266, UTF-8) first, else `filename`. */
export function attachmentName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // Not valid percent-encoding: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() || undefined;
}
