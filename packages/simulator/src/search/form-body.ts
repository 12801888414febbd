import type { IncomingMessage } from 'node:http';
import { readBody, readJsonBody } from '../request-body';
import type { RequestBody } from '../routing';

/**
 * SearXNG takes its parameters as an HTML form posts them
 * (`application/x-www-form-urlencoded`), which reads here as the object of
 * its fields (the last value of a repeated field wins, as Flask's
 * `request.form.get` gives), so that handlers and the request log see it as
 * they see JSON. Any other body is read as JSON.
 */
export function readFormOrJsonBody(req: IncomingMessage, maxBytes: number): Promise<RequestBody> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) return readJsonBody(req, maxBytes);
  return readBody(req, maxBytes, (text) => ({ kind: 'json', value: Object.fromEntries(new URLSearchParams(text)) }));
}
