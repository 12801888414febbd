import { GatewayError } from '../errors/gateway-error';
import type { StoredFile } from '../files/file-service';
import type { Principal } from '../keys/principal';
import type { StreamedStrings } from '../providers/streamed-json-body';
import { dataUrlStream } from './data-url-stream';
import type { ContentPart, InputItem, ResponsesRequest } from './responses-request-schema';

/** What dereferencing needs of the file store: the key's own files and their bytes, checked against their upload. */
export interface OwnedFiles {
  findOwned(principal: Principal, id: string): Promise<StoredFile>;
  verifiedContent(file: StoredFile): AsyncIterable<Buffer>;
  readContent(file: StoredFile): Promise<Buffer>;
}

/** The spec's limit: the files one Responses call dereferences stay under 64 MB in all. */
export const MAX_DEREFERENCED_BYTES = 64 * 1024 * 1024;

type FilePart = Extract<ContentPart, { type: 'input_file' | 'input_image' }> & { file_id?: string | null };

/** The files a request names by id, looked up and checked, none of them read yet. */
export interface NamedFiles {
  byId: Map<string, StoredFile>;
  /** Their stored sizes added up. */
  bytes: number;
}

/**
 * Looks up every file an `input_file` or `input_image` names by `file_id`
 * (another key's file, or an expired one, is 404 `file_not_found`), checks
 * that images are images, and sums the sizes: a call over the limit costs
 * no reading and no upstream call. Reads no file's bytes.
 */
export async function findNamedFiles(req: ResponsesRequest, principal: Principal, files: OwnedFiles): Promise<NamedFiles> {
  const byId = new Map<string, StoredFile>();
  if (typeof req.input === 'string') return { byId, bytes: 0 };
  const parts = req.input.flatMap((item, index) => fileParts(item).map(({ part, at }) => ({ part, at: `input[${index}].${at}` })));
  for (const { part, at } of parts) {
    if (byId.has(part.file_id!)) continue;
    const file = await files.findOwned(principal, part.file_id!);
    if (part.type === 'input_image' && !file.mimeType.startsWith('image/')) {
      throw new GatewayError('invalid_parameter', `"${at}.file_id" names "${file.filename}" (${file.mimeType}), not an image; send it as an input_file.`, { param: `${at}.file_id` });
    }
    byId.set(file.id, file);
  }
  const bytes = [...byId.values()].reduce((sum, file) => sum + file.bytes, 0);
  if (bytes >= MAX_DEREFERENCED_BYTES) {
    throw new GatewayError('file_too_large', `The files this request names add up to ${bytes} bytes; one Responses call may use under ${MAX_DEREFERENCED_BYTES} (64 MB). Split the work over several calls.`, { param: 'input' });
  }
  return { byId, bytes };
}

/**
 * The request with every named file inline as a placeholder of `streamed`
 * (a data URL read from storage and base64-encoded while the upstream body
 * is sent, anew for each attempt): no file is read here, and none is ever
 * held whole. For native routes, whose body the gateway sends itself.
 */
export function inlineStreamed(req: ResponsesRequest, named: NamedFiles, files: OwnedFiles, streamed: StreamedStrings): ResponsesRequest {
  const placeholders = new Map<string, string>();
  for (const file of named.byId.values()) placeholders.set(file.id, streamed.placeholder(dataUrlStream(file.mimeType, file.bytes, () => files.verifiedContent(file))));
  return replaceFileParts(req, named, placeholders);
}

/**
 * The request with every named file inline as a whole data URL, read now:
 * for the stateless bridge, whose chat adapters turn data URLs into their
 * own protocols' parts. The instance's file byte budget bounds how many such
 * copies exist at once.
 */
export async function inlineRead(req: ResponsesRequest, named: NamedFiles, files: OwnedFiles): Promise<ResponsesRequest> {
  const dataUrls = new Map<string, string>();
  for (const file of named.byId.values()) dataUrls.set(file.id, `data:${file.mimeType};base64,${(await files.readContent(file)).toString('base64')}`);
  return replaceFileParts(req, named, dataUrls);
}

/**
 * Replaces every `input_file` and `input_image` that names a `file_id` with
 * its inline content, so that no upstream ever sees the gateway's ids:
 * documents as `file_data` with their filename, images as `image_url`.
 */
function replaceFileParts(req: ResponsesRequest, named: NamedFiles, dataUrls: Map<string, string>): ResponsesRequest {
  if (typeof req.input === 'string' || !named.byId.size) return req;
  const replace = (part: ContentPart): ContentPart => {
    const fileId = (part as FilePart).file_id;
    if (!fileId || (part.type !== 'input_file' && part.type !== 'input_image')) return part;
    const { file_id: _id, ...rest } = part as FilePart;
    const file = named.byId.get(fileId)!;
    return part.type === 'input_image'
      ? ({ ...rest, image_url: dataUrls.get(fileId) } as ContentPart)
      : ({ ...rest, filename: (part as { filename?: string | null }).filename ?? file.filename, file_data: dataUrls.get(fileId) } as ContentPart);
  };
  return { ...req, input: req.input.map((item) => mapContent(item, replace)) };
}

/** The file parts of one item that name a file id, with where they are. */
function fileParts(item: InputItem): { part: FilePart; at: string }[] {
  const content = contentOf(item);
  if (!Array.isArray(content)) return [];
  return content.flatMap((part, index) =>
    (part.type === 'input_file' || part.type === 'input_image') && (part as FilePart).file_id ? [{ part: part as FilePart, at: `${contentField(item)}[${index}]` }] : [],
  );
}

function contentField(item: InputItem): 'content' | 'output' {
  return (item as { type?: string }).type === 'function_call_output' ? 'output' : 'content';
}

function contentOf(item: InputItem): unknown {
  return (item as Record<string, unknown>)[contentField(item)];
}

function mapContent(item: InputItem, replace: (part: ContentPart) => ContentPart): InputItem {
  const content = contentOf(item);
  if (!Array.isArray(content)) return item;
  return { ...item, [contentField(item)]: (content as ContentPart[]).map(replace) } as InputItem;
}
