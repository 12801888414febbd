import type { ServerResponse } from 'node:http';
import type { UsageTicket } from '../billing/usage-ticket';
import type { Principal } from '../keys/principal';
import type { RequestContext } from '../model-call/request-context';
import type { ErrorStyle } from './error-style';

/** What the middlewares learn about a request, kept on `res.locals` under one typed name. */
export interface RequestLocals {
  requestId: string;
  startedAt: number;
  createdAt: Date;
  /** The route's label for metrics, set by the direct routes (express requests take it from `req.route`). */
  route?: string;
  /** How the route's dialect words errors (see error-style.ts); the gateway's envelope when unset. */
  errorStyle?: ErrorStyle;
  principal?: Principal;
  ticket?: UsageTicket;
  context?: RequestContext;
}

export function locals(res: ServerResponse): RequestLocals {
  return (res as ServerResponse & { locals: RequestLocals }).locals;
}
