import { createHash } from 'node:crypto';
import { earlierAnswer, replay } from '../http/idempotent';
import type { HttpRequest, HttpResponse } from '../http/http-types';
import type { IdempotencyStore } from '../http/idempotency-store';
import type { Principal } from '../keys/principal';
import type { Logger } from '../observability/logger';
import type { FileService, StoredFile } from './file-service';
import { toFileObject } from './stored-file';

/**
 * `POST /v1/files` with an `Idempotency-Key`. An upload is known only once
 * its bytes are in, so the key is claimed then, for what was uploaded (purpose,
 * file name, size and SHA-256 of the bytes): the first upload under a key is
 * answered and kept; a retry of the same upload within 24 hours gets the
 * first answer back (`Idempotent-Replayed: true`) and its own copy is deleted,
 * so the key stands for one stored file; another upload under the key is
 * 409 `idempotency_key_reused` (and not kept either).
 */
export async function uploadOnce(
  deps: { files: FileService; store: IdempotencyStore; logger: Logger },
  request: { principal: Principal; requestId: string; idempotencyKey: string; endpoint: string },
  req: HttpRequest,
  res: HttpResponse,
): Promise<void> {
  const { principal } = request;
  const file = await deps.files.upload(principal, req, res);
  const claim = {
    keyId: principal.keyId, idempotencyKey: request.idempotencyKey, endpoint: request.endpoint, requestId: request.requestId, requestHash: uploadHash(file),
  };
  const found = await deps.store.claim(claim);
  if (found.kind === 'claimed') {
    const body = JSON.stringify(toFileObject(file));
    await deps.store.complete(claim, { status: 201, contentType: 'application/json; charset=utf-8', body }).catch((err) => {
      deps.logger.error('idempotency key of an upload not completed; a retry gets 409 in progress until the claim is abandoned', { request_id: request.requestId, err });
    });
    res.statusCode = 201;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
    return;
  }
  await deps.files.delete(principal, file.id).catch((err) => deps.logger.warn('the copy uploaded by a retry was not deleted; the sweep removes it when it expires', { file_id: file.id, err }));
  replay(res, earlierAnswer(found, claim.requestHash));
}

function uploadHash(file: StoredFile): string {
  return createHash('sha256').update(`POST /v1/files\n${file.purpose}\n${file.filename}\n${file.bytes}\n${file.sha256}`).digest('hex');
}
