import type { ServerResponse } from 'node:http';
import type { GatewayError } from '../errors/gateway-error';
import { GATEWAY_ERRORS } from './error-style';
import { locals } from './request-locals';
import { sendJson } from './send-json';

/** An error answer, in the error style of the request's route (the gateway's envelope unless its door speaks another dialect). */
export function sendError(res: ServerResponse, err: GatewayError): void {
  if (err.options.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.options.retryAfterSeconds));
  const l = locals(res);
  const style = l.errorStyle ?? GATEWAY_ERRORS;
  for (const [name, value] of Object.entries(style.headers?.(l.requestId, err, res.req) ?? {})) res.setHeader(name, value);
  sendJson(res, err.status, style.body(err, l.requestId));
}
