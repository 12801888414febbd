import { CHARACTERS_PER_TOKEN } from '../token-count';
import { TOKENS_PER_IMAGE } from './chat-usage';
import { type OpenAIError, invalidParameter, invalidRequest, missingParameter } from './errors';
import { fileNotFound } from './responses-errors';

/**
 * Images and files in a Responses input: what the simulator accepts, and
 * what they cost in input tokens. The simulator has no Files API, so every
 * `file_id` is refused as OpenAI refuses an unknown one: a gateway that
 * dereferences its own uploads must send their bytes (`file_data`, an
 * `image_url` data URL), never its ids. Nothing is fetched: a `file_url` or
 * an https image is taken on trust and charged a flat amount.
 * @see https://platform.openai.com/docs/guides/pdf-files
 * @see https://platform.openai.com/docs/guides/images-vision
 */

type Fields = { [field: string]: unknown };

/** A fetched document's size is unknown here; a flat charge still shows in the usage that it arrived. */
export const TOKENS_PER_FILE_URL = 256;

/**
 * A base64 data URL's media type, or undefined. The head is matched by a
 * pattern and the payload searched for a bad character: a pattern spanning
 * megabytes of payload exhausts V8's backtracking stack.
 */
function base64DataUrlType(url: string): string | undefined {
  const comma = url.indexOf(',');
  if (comma < 0 || comma > 256) return undefined;
  const head = /^data:([\w.+-]+\/[\w.+-]+)(?:;[\w-]+=[\w.-]+)*;base64,$/.exec(url.slice(0, comma + 1));
  const payload = url.slice(comma + 1);
  return head && !/[^A-Za-z0-9+/=]/.test(payload) && !/=[^=]/.test(payload) ? head[1] : undefined;
}
const isWebUrl = (url: string) => /^https?:\/\//.test(url) && !/\s/.test(url) && url.length > 8;
const IMAGE_DETAILS = ['low', 'high', 'auto'];

export function imagePartError(part: Fields, path: string): OpenAIError | undefined {
  if (typeof part.file_id === 'string') return fileNotFound(part.file_id, `${path}.file_id`);
  const url = part.image_url;
  if (typeof url !== 'string') return missingParameter(`${path}.image_url`);
  if (part.detail !== undefined && part.detail !== null && !IMAGE_DETAILS.includes(String(part.detail))) {
    return invalidParameter(`${path}.detail`, `Invalid value: '${String(part.detail)}'. Supported values are: 'low', 'high', and 'auto'.`);
  }
  if (isWebUrl(url)) return undefined;
  const mediaType = base64DataUrlType(url);
  if (mediaType?.startsWith('image/')) return undefined;
  const problem = mediaType ? `unsupported MIME type '${mediaType}'` : 'a value that is neither a URL nor a base64 data URL';
  return invalidParameter(
    `${path}.image_url`,
    `Invalid '${path}.image_url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got ${problem}.`,
  );
}

export function filePartError(part: Fields, path: string): OpenAIError | undefined {
  if (typeof part.file_id === 'string') return fileNotFound(part.file_id, `${path}.file_id`);
  if (typeof part.file_data === 'string') {
    if (base64DataUrlType(part.file_data) === undefined) {
      return invalidParameter(`${path}.file_data`, `Invalid '${path}.file_data'. Expected a base64-encoded data URL (e.g. 'data:application/pdf;base64,JVBERi0...').`);
    }
    return typeof part.filename === 'string' && part.filename !== '' ? undefined : missingParameter(`${path}.filename`);
  }
  if (typeof part.file_url === 'string') {
    return isWebUrl(part.file_url) ? undefined : invalidParameter(`${path}.file_url`, `Invalid '${path}.file_url': expected an http or https URL.`);
  }
  return invalidRequest(400, `Invalid '${path}': expected one of 'file_id', 'file_data' or 'file_url'.`, path, 'missing_required_parameter');
}

/**
 * The input tokens of an image or file part: an image the flat price of a
 * low-detail image, as Chat Completions counts it; inline file bytes under
 * the simulator's four-characters rule (each byte a character), so a test
 * can tell from the usage that a file's bytes, and how many, arrived.
 */
export function countAttachmentTokens(part: { type: string; file_data?: string; file_url?: string }): number {
  if (part.type === 'input_image') return TOKENS_PER_IMAGE;
  if (part.type !== 'input_file') return 0;
  if (typeof part.file_data === 'string') return Math.ceil(decodedBytes(part.file_data) / CHARACTERS_PER_TOKEN);
  return typeof part.file_url === 'string' ? TOKENS_PER_FILE_URL : 0;
}

/** The size of a data URL's payload, computed from its base64 length without decoding it. */
function decodedBytes(dataUrl: string): number {
  return Buffer.byteLength(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}
