import { timeOrderedHex } from '../db/time-ordered-id';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import type { RequestLocals } from './request-locals';

export const REQUEST_ID_HEADER = 'X-Svc-Request-Id';

/**
 * `req_` and 32 hex digits that begin with the request's time (`at`, which
 * is also its usage record's `created_at`), so that the record is found by
 * id in its month's partition alone.
 */
export function newRequestId(at: Date): string {
  return `req_${timeOrderedHex(at)}`;
}

/** A request's id and its time, from one reading of the clock. */
export function newRequestStamp(): { requestId: string; createdAt: Date } {
  const createdAt = new Date();
  return { requestId: newRequestId(createdAt), createdAt };
}

/** Every response, errors included, carries the gateway request id. */
export function requestId(_req: HttpRequest, res: HttpResponse, next: Next): void {
  const l: RequestLocals = { ...newRequestStamp(), startedAt: performance.now() };
  res.locals = res.locals ? Object.assign(res.locals, l) : (l as unknown as Record<string, unknown>);
  res.setHeader(REQUEST_ID_HEADER, l.requestId);
  next();
}
