import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import type { RequestLocals } from './request-locals';

export const REQUEST_ID_HEADER = 'X-Svc-Request-Id';

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}

/** Every response, errors included, carries the gateway request id. */
export function requestId(_req: HttpRequest, res: HttpResponse, next: Next): void {
  const id = newRequestId();
  const l: RequestLocals = { requestId: id, startedAt: performance.now(), createdAt: new Date() };
  res.locals = res.locals ? Object.assign(res.locals, l) : (l as unknown as Record<string, unknown>);
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
}
