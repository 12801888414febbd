import type { ServerResponse } from 'node:http';
import type { GatewayError } from '../errors/gateway-error';
import { GATEWAY_ERRORS } from './error-style';
import { locals } from './request-locals';
import { sendJson } from './send-json';

/** An error answer, in the error style of the request's route (the gateway's envelope unless its door speaks another dialect). */
export function sendError(res: ServerResponse, err: GatewayError): void {
  if (err.options.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.options.retryAfterSeconds));
  const l = locals(res);
  sendJson(res, err.status, (l.errorStyle ?? GATEWAY_ERRORS).body(err, l.requestId));
}
