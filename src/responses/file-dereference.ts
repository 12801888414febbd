import { GatewayError } from '../errors/gateway-error';
import type { StoredFile } from '../files/file-service';
import type { Principal } from '../keys/principal';
import type { ContentPart, InputItem, ResponsesRequest } from './responses-request-schema';

/** What dereferencing needs of the file store: the key's own files and their bytes. */
export interface OwnedFiles {
  findOwned(principal: Principal, id: string): Promise<StoredFile>;
  readContent(file: StoredFile): Promise<Buffer>;
}

/** The spec's limit: the files one Responses call dereferences stay under 64 MB in all. */
export const MAX_DEREFERENCED_BYTES = 64 * 1024 * 1024;

type FilePart = Extract<ContentPart, { type: 'input_file' | 'input_image' }> & { file_id?: string | null };

/**
 * Replaces every `input_file` and `input_image` that names a `file_id` with
 * the file's content, so that no upstream ever sees the gateway's ids:
 * documents as base64 `file_data` with their filename, images as data URLs.
 * Every file is looked up first (another key's file, or an expired one, is
 * 404 `file_not_found`) and the sizes are summed before any byte is read,
 * so a call over the limit costs no reading and no upstream call.
 * @returns the request with the parts replaced, and how many files it read
 */
export async function dereferenceFiles(req: ResponsesRequest, principal: Principal, files: OwnedFiles): Promise<{ request: ResponsesRequest; dereferenced: number }> {
  if (typeof req.input === 'string') return { request: req, dereferenced: 0 };
  const parts = req.input.flatMap((item, index) => fileParts(item).map(({ part, at }) => ({ part, at: `input[${index}].${at}` })));
  if (!parts.length) return { request: req, dereferenced: 0 };

  const found = new Map<string, StoredFile>();
  for (const { part, at } of parts) {
    if (found.has(part.file_id!)) continue;
    const file = await files.findOwned(principal, part.file_id!);
    if (part.type === 'input_image' && !file.mimeType.startsWith('image/')) {
      throw new GatewayError('invalid_parameter', `"${at}.file_id" names "${file.filename}" (${file.mimeType}), not an image; send it as an input_file.`, { param: `${at}.file_id` });
    }
    found.set(file.id, file);
  }
  const total = [...found.values()].reduce((sum, file) => sum + file.bytes, 0);
  if (total >= MAX_DEREFERENCED_BYTES) {
    throw new GatewayError('file_too_large', `The files this request names add up to ${total} bytes; one Responses call may use under ${MAX_DEREFERENCED_BYTES} (64 MB). Split the work over several calls.`, { param: 'input' });
  }
  const dataUrls = new Map<string, string>();
  for (const file of found.values()) dataUrls.set(file.id, `data:${file.mimeType};base64,${(await files.readContent(file)).toString('base64')}`);

  const replace = (part: ContentPart): ContentPart => {
    const fileId = (part as FilePart).file_id;
    if (!fileId || (part.type !== 'input_file' && part.type !== 'input_image')) return part;
    const { file_id: _id, ...rest } = part as FilePart;
    const file = found.get(fileId)!;
    return part.type === 'input_image'
      ? ({ ...rest, image_url: dataUrls.get(fileId) } as ContentPart)
      : ({ ...rest, filename: (part as { filename?: string | null }).filename ?? file.filename, file_data: dataUrls.get(fileId) } as ContentPart);
  };
  const input = req.input.map((item) => mapContent(item, replace));
  return { request: { ...req, input }, dereferenced: found.size };
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
