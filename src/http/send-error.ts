import type { Response } from 'express';
import { toEnvelope, type GatewayError } from './errors';
import { locals } from './request-locals';

export function sendError(res: Response, err: GatewayError): void {
  if (err.options.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.options.retryAfterSeconds));
  res.status(err.status).json(toEnvelope(err, locals(res).requestId));
}
