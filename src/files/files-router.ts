import { pipeline } from 'node:stream/promises';
import { Router, type Request } from 'express';
import { GatewayError } from '../errors/gateway-error';
import type { IdempotencyStore } from '../http/idempotency-store';
import { idempotencyKeyOf } from '../http/idempotent';
import { methodNotAllowed } from '../http/method-not-allowed';
import { isMultipart } from '../http/multipart';
import { locals } from '../http/request-locals';
import { contentRange, parseRange, unsatisfiedRange, type RangeAnswer } from './byte-range';
import { attachmentDisposition } from './content-disposition';
import type { PageLimits } from '../db/page';
import { listQuery, queryText } from '../http/list-query';
import { fileIdCursor } from './file-id-cursor';
import type { FileListQuery, FileService, StoredFile } from './file-service';
import { uploadOnce } from './idempotent-upload';
import { toFileObject } from './stored-file';
import type { Logger } from '../observability/logger';

export const FILES_ENDPOINT = '/v1/files';

/** `GET /v1/files` pages: OpenAI takes 1 to 10,000 per page; without `limit` the gateway answers 100 (and `has_more`). */
export const LIST_LIMIT: PageLimits = { default: 100, max: 10_000 };

/**
 * OpenAI's Files API: `POST /v1/files` (multipart upload), `GET /v1/files`
 * (list), `GET /v1/files/{id}`, `GET /v1/files/{id}/content` (download,
 * with single byte ranges) and `DELETE /v1/files/{id}`, so `client.files.*`
 * of the openai SDKs works unchanged. Every route sees only the calling
 * key's files; an upload with an `Idempotency-Key` is stored once (see
 * idempotent-upload.ts).
 */
export function filesRouter(files: FileService, retries?: { store: IdempotencyStore; logger: Logger }): Router {
  const router = Router();

  router
    .route(FILES_ENDPOINT)
    .post(async (req, res) => {
      if (!isMultipart(req)) {
        throw new GatewayError('invalid_multipart', 'Send the upload as multipart/form-data with the fields "purpose" and "file".');
      }
      const l = locals(res);
      const idempotencyKey = retries && idempotencyKeyOf(req);
      if (retries && idempotencyKey) {
        await uploadOnce({ files, ...retries }, { principal: l.principal!, requestId: l.requestId, idempotencyKey, endpoint: FILES_ENDPOINT }, req, res);
        return;
      }
      const file = await files.upload(l.principal!, req, res);
      res.status(201).json(toFileObject(file));
    })
    .get(async (req, res) => {
      const page = await files.list(locals(res).principal!, fileListQuery(req), fileIdCursor);
      const data = page.items.map(toFileObject);
      res.json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: page.hasMore });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route(`${FILES_ENDPOINT}/:id`)
    .get(async (req, res) => {
      res.json(toFileObject(await files.findOwned(locals(res).principal!, String(req.params.id))));
    })
    .delete(async (req, res) => {
      const file = await files.delete(locals(res).principal!, String(req.params.id));
      res.json({ id: file.id, object: 'file', deleted: true });
    })
    .all(methodNotAllowed(['GET', 'DELETE']));

  router
    .route(`${FILES_ENDPOINT}/:id/content`)
    .get(async (req, res) => {
      const file = await files.findOwned(locals(res).principal!, String(req.params.id));
      const range = requestedRange(req, file);
      if (range.kind === 'unsatisfiable') {
        res.setHeader('Content-Range', unsatisfiedRange(file.bytes));
        throw new GatewayError('range_not_satisfiable', `The range "${req.headers.range}" starts past the end of the file (${file.bytes} bytes).`, { details: { bytes: file.bytes } });
      }
      const partial = range.kind === 'partial' ? range : undefined;
      res.status(partial ? 206 : 200);
      res.setHeader('Content-Type', file.mimeType);
      res.setHeader('Content-Length', String(partial ? partial.end - partial.start + 1 : file.bytes));
      if (partial) res.setHeader('Content-Range', contentRange(partial, file.bytes));
      res.setHeader('Content-Disposition', attachmentDisposition(file.filename));
      res.setHeader('Accept-Ranges', 'bytes');
      res.setHeader('ETag', etag(file));
      res.setHeader('Cache-Control', 'private, no-cache');
      // Whatever the bytes are (HTML, say), a browser that gets them renders nothing and runs nothing.
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      if (req.method === 'HEAD') return void res.end();
      const body = await files.openContent(file, partial);
      // Streamed from the storage: a large file is never held in memory.
      await pipeline(body, res).catch(() => body.destroy());
    })
    .all(methodNotAllowed(['GET']));

  return router;
}

/** The list query of OpenAI's files list (`limit`, `order`, `after`, `purpose`), each given at most once. */
function fileListQuery(req: Request): FileListQuery {
  const { limit, order, after } = listQuery(req.query, LIST_LIMIT);
  return { limit, order, after, purpose: queryText(req.query, 'purpose') };
}

/** The range to answer with; an `If-Range` that no longer matches asks for the whole (changed) file. */
function requestedRange(req: Request, file: StoredFile): RangeAnswer {
  const ifRange = req.headers['if-range'];
  if (ifRange !== undefined && ifRange !== etag(file)) return { kind: 'full' };
  return parseRange(req.headers.range, file.bytes);
}

/** The bytes never change under an id: their SHA-256 is a strong validator. */
function etag(file: StoredFile): string {
  return `"${file.sha256}"`;
}
