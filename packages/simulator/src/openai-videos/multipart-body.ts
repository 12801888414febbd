import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { OpenAIError } from '../openai/errors';
import { openaiJsonBody } from '../openai/request-body';
import { readJsonBody } from '../request-body';
import type { Exchange, RequestBody } from '../routing';

/**
 * The Videos API takes JSON or `multipart/form-data` (openai-node sends
 * multipart since it attaches `input_reference` files). A form reads as the
 * object of its fields, each file replaced by what the request log should
 * show of it: name, type and size, never the bytes.
 * @see https://platform.openai.com/docs/api-reference/videos/create
 */
interface UploadedFileSummary {
  filename: string;
  content_type: string;
  size_bytes: number;
}

export function readJsonOrFormBody(req: IncomingMessage, maxBytes: number): Promise<RequestBody> {
  return isMultipart(req) ? readFormBody(req, maxBytes) : readJsonBody(req, maxBytes);
}

/** The request's fields, or the error OpenAI gives for an unreadable body. */
export function videoRequestFields(exchange: Exchange, maxBytes: number): { ok: true; value: object } | { ok: false; error: OpenAIError } {
  if (exchange.body.kind === 'invalid_json' && isMultipart(exchange.req)) return { ok: false, error: unreadableForm() };
  return openaiJsonBody(exchange.body, maxBytes);
}

function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');
}

/**
 * Busboy's failures (a missing boundary, a truncated part) read as an
 * unparsable body, as invalid JSON does. Past the cap the rest is drained,
 * not parsed, so the client can still read the 413.
 */
function readFormBody(req: IncomingMessage, maxBytes: number): Promise<RequestBody> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (body: RequestBody) => {
      if (settled) return;
      settled = true;
      resolve(body);
    };
    req.on('close', () => {
      if (!req.complete) settle({ kind: 'none' });
    });
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fieldSize: maxBytes } });
    } catch {
      req.on('end', () => settle({ kind: 'invalid_json' })).resume();
      return;
    }
    const fields: { [name: string]: string | UploadedFileSummary } = {};
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (name, file, info) => {
      let size = 0;
      file.on('data', (chunk: Buffer) => (size += chunk.length));
      file.on('end', () => (fields[name] = { filename: info.filename ?? '', content_type: info.mimeType, size_bytes: size }));
    });
    parser.on('close', () => settle({ kind: 'json', value: fields }));
    parser.on('error', () => settle({ kind: 'invalid_json' }));
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      // Unpiping pauses the request; resuming drains it.
      if (received > maxBytes) req.unpipe(parser).resume();
    });
    req.on('end', () => {
      if (received > maxBytes) settle({ kind: 'too_large' });
    });
    req.pipe(parser);
  });
}

function unreadableForm(): OpenAIError {
  return { status: 400, error: { message: 'We could not parse the multipart/form-data body of your request.', type: 'invalid_request_error', param: null, code: null } };
}
