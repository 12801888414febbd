import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Writes a whole response in one go, with an exact content-length as a real API sends. */
export function sendBody(res: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: string | Buffer): void {
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: OutgoingHttpHeaders = {}): void {
  sendBody(res, status, { 'content-type': 'application/json', ...headers }, JSON.stringify(value));
}
