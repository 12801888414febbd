import type { IncomingHttpHeaders } from 'node:http';
import { InvalidMessage, JSON_RPC, type ClientMessage, type JsonRpcId } from './json-rpc';
import { checkRequestHeaders, headerMismatch, headerOf } from './mcp-request-headers';
import { isLegacyRevision, isModernRevision, isServedRevision, SERVED_REVISIONS, type ModernRevision } from './protocol-revisions';

/** The `_meta` keys MCP 2026-07-28 reserves for what a request says of itself. */
export const REQUEST_META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
} as const;

/** A request of the legacy era (after `initialize`, or `initialize` itself), or one of the stateless revision with what it declared. */
export type RequestRevision =
  | { era: 'legacy' }
  | { era: 'modern'; revision: ModernRevision; clientInfo: { name: string; version: string } | undefined };

const LEGACY: RequestRevision = { era: 'legacy' };

/**
 * Which era a message speaks, from its `MCP-Protocol-Version` header and
 * its `_meta` (MCP 2026-07-28's versioning: a dual-era server serves a
 * request that carries the per-request fields statelessly, and an
 * `initialize` with legacy semantics). A legacy request is taken as
 * before. A modern one must carry its revision in both places, alike, its
 * client capabilities, and the `Mcp-Method` / `Mcp-Name` headers that agree
 * with its body. A revision the gateway does not serve, in either era, is
 * an `UnsupportedProtocolVersionError` naming the ones it does. Every
 * refusal here is a 400.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/index#meta
 */
export function requestRevision(headers: IncomingHttpHeaders, message: ClientMessage): RequestRevision {
  const header = headerOf(headers, 'mcp-protocol-version');
  if (message.kind !== 'request') {
    if (header !== undefined && !isServedRevision(header)) throw unsupportedRevision(null, header);
    return LEGACY;
  }
  if (message.method === 'initialize') return LEGACY;
  const { id, method, params } = message;
  const meta = params?._meta;
  const declared = isObject(meta) ? meta[REQUEST_META.protocolVersion] : undefined;
  if (declared === undefined) {
    if (header === undefined || isLegacyRevision(header)) return LEGACY;
    if (!isModernRevision(header)) throw unsupportedRevision(id, header);
    throw invalidMeta(id, `_meta["${REQUEST_META.protocolVersion}"] is required (MCP ${header} carries the protocol version in every request)`);
  }
  if (typeof declared !== 'string') throw invalidMeta(id, `_meta["${REQUEST_META.protocolVersion}"] must be a string`);
  if (header === undefined) throw headerMismatch(id, 'the MCP-Protocol-Version header is required');
  if (header !== declared) throw headerMismatch(id, `MCP-Protocol-Version header value '${header}' does not match body value '${declared}'`);
  if (!isServedRevision(declared)) throw unsupportedRevision(id, declared);
  if (!isModernRevision(declared)) return LEGACY;
  const capabilities = (meta as Record<string, unknown>)[REQUEST_META.clientCapabilities];
  if (!isObject(capabilities)) throw invalidMeta(id, `_meta["${REQUEST_META.clientCapabilities}"] is required and must be an object (an empty one declares no optional capability)`);
  const clientInfo = (meta as Record<string, unknown>)[REQUEST_META.clientInfo];
  if (clientInfo !== undefined && !(isObject(clientInfo) && typeof clientInfo.name === 'string' && typeof clientInfo.version === 'string')) {
    throw invalidMeta(id, `_meta["${REQUEST_META.clientInfo}"] must be an object with a string name and version`);
  }
  checkRequestHeaders(headers, id, method, params);
  return { era: 'modern', revision: declared, clientInfo: clientInfo as { name: string; version: string } | undefined };
}

/** A request's params without the `_meta` keys MCP reserves for the hop between client and gateway, which the gateway's own session with an upstream server does not carry. */
export function withoutProtocolMeta(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!params || !isObject(params._meta)) return params;
  const kept = Object.fromEntries(Object.entries(params._meta).filter(([key]) => !key.startsWith('io.modelcontextprotocol/')));
  const { _meta, ...rest } = params;
  return Object.keys(kept).length ? { ...rest, _meta: kept } : rest;
}

function unsupportedRevision(id: JsonRpcId | null, requested: string): InvalidMessage {
  return new InvalidMessage(
    JSON_RPC.unsupportedProtocolVersion,
    `Unsupported protocol version: ${requested} is not served here; this gateway serves ${SERVED_REVISIONS.join(', ')}.`,
    id,
    { data: { supported: [...SERVED_REVISIONS], requested }, status: 400 },
  );
}

function invalidMeta(id: JsonRpcId, detail: string): InvalidMessage {
  return new InvalidMessage(JSON_RPC.invalidParams, `Invalid params: ${detail}.`, id, { status: 400 });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
