import type { Response } from 'express';
import type { UsageTicket } from '../billing/usage-ticket';
import type { Principal } from '../keys/principal';
import type { RequestContext } from './request-context';

/** What the middlewares learn about a request, kept on `res.locals` under one typed name. */
export interface RequestLocals {
  requestId: string;
  startedAt: number;
  createdAt: Date;
  principal?: Principal;
  ticket?: UsageTicket;
  context?: RequestContext;
}

export function locals(res: Response): RequestLocals {
  return res.locals as unknown as RequestLocals;
}
