import type { ServerResponse } from 'node:http';
import { toEnvelope, type GatewayError } from '../errors/gateway-error';
import { locals } from './request-locals';
import { sendJson } from './send-json';

export function sendError(res: ServerResponse, err: GatewayError): void {
  if (err.options.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.options.retryAfterSeconds));
  sendJson(res, err.status, toEnvelope(err, locals(res).requestId));
}
