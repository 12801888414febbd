import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { RequestLocals } from './request-locals';

export const REQUEST_ID_HEADER = 'X-Svc-Request-Id';

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}

/** Every response, errors included, carries the gateway request id. */
export function requestId(_req: Request, res: Response, next: NextFunction): void {
  const id = newRequestId();
  const l: RequestLocals = { requestId: id, startedAt: performance.now(), createdAt: new Date() };
  Object.assign(res.locals, l);
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
}
