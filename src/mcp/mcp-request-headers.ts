import type { IncomingHttpHeaders } from 'node:http';
import { InvalidMessage, JSON_RPC, type JsonRpcId } from './json-rpc';

/** The methods whose name (or URI) a request mirrors in `Mcp-Name`, and the parameter it mirrors. */
const NAMED_BY: Record<string, 'name' | 'uri'> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** `=?base64?…?=`: a value that is not plain header-safe ASCII, sent Base64-encoded (UTF-8). */
const BASE64_SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
/** What a header value may hold as sent: visible ASCII, space and tab. */
const HEADER_SAFE = /^[\x20-\x7E\t]*$/;

/**
 * The checks MCP 2026-07-28's Streamable HTTP transport asks of a server
 * that reads the body: `Mcp-Method` must be the request's method, and
 * `Mcp-Name` (on `tools/call`, `prompts/get` and `resources/read`) its
 * `params.name` or `params.uri`, decoded first when Base64-encoded; a
 * header missing, malformed or disagreeing with the body is a 400 with
 * `HeaderMismatch` (-32020), since a proxy may have routed on the header.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation
 */
export function checkRequestHeaders(headers: IncomingHttpHeaders, id: JsonRpcId, method: string, params: Record<string, unknown> | undefined): void {
  const sentMethod = headerOf(headers, 'mcp-method');
  if (sentMethod === undefined) throw headerMismatch(id, 'the Mcp-Method header is required');
  if (decoded(sentMethod, 'Mcp-Method', id, false) !== method) throw headerMismatch(id, `Mcp-Method header value '${sentMethod}' does not match body value '${method}'`);
  const named = NAMED_BY[method];
  if (!named) return;
  const sentName = headerOf(headers, 'mcp-name');
  if (sentName === undefined) throw headerMismatch(id, `the Mcp-Name header is required on ${method} (the ${named} of its params)`);
  const bodyValue = params?.[named];
  if (decoded(sentName, 'Mcp-Name', id, true) !== bodyValue) {
    throw headerMismatch(id, `Mcp-Name header value '${sentName}' does not match body value ${typeof bodyValue === 'string' ? `'${bodyValue}'` : `(params.${named} is ${bodyValue === undefined ? 'missing' : 'not a string'})`}`);
  }
}

/** A header's value as the body would hold it: plain ASCII as sent, or the Base64 sentinel decoded where the header allows it. */
function decoded(value: string, header: string, id: JsonRpcId, base64Allowed: boolean): string {
  if (!HEADER_SAFE.test(value)) throw headerMismatch(id, `the ${header} header value holds characters a header may not carry (send it Base64-encoded as =?base64?…?=)`);
  const sentinel = base64Allowed ? BASE64_SENTINEL.exec(value) : null;
  if (!sentinel) return value;
  if (sentinel[1].length % 4 !== 0) throw headerMismatch(id, `the ${header} header's Base64 value is malformed`);
  const bytes = Buffer.from(sentinel[1], 'base64');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw headerMismatch(id, `the ${header} header's Base64 value is not UTF-8`);
  }
}

/** One header's value as sent (repeated ones joined, as Node joins unknown headers, so that they match nothing). */
export function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function headerMismatch(id: JsonRpcId | null, detail: string): InvalidMessage {
  return new InvalidMessage(JSON_RPC.headerMismatch, `Header mismatch: ${detail}.`, id, { status: 400 });
}
