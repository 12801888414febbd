import { JSON_RPC } from './json-rpc';

/** The gateway as it names itself to MCP clients (`serverInfo` in `initialize`, `_meta` of every modern result). */
export const SERVER_INFO = { name: 'model-gateway', title: 'Model gateway', version: '1.0.0' };

export const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

/**
 * How long a modern client may keep a result, by method (MCP 2026-07-28's
 * caching hints, required on these results). `server/discover` is the same
 * for every caller; the lists are the key's own (its `mcp_tools`), so
 * private, and fresh for a minute, or not at all when a server was left
 * out of them; a resource read is the upstream's, which gives no hint.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
 */
const CACHE_HINTS: Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }> = {
  'server/discover': { ttlMs: 60 * 60_000, cacheScope: 'public' },
  'tools/list': { ttlMs: 60_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
};

/**
 * A result as MCP 2026-07-28 shapes it: `resultType: "complete"` (the
 * gateway never asks a client for input), the gateway named in `_meta`,
 * and the caching hints of the methods that carry them (a list that left a
 * server out is stale at once: the server may be back on the next call).
 */
export function modernResult(method: string, result: Record<string, unknown>, partial: boolean): Record<string, unknown> {
  const meta = typeof result._meta === 'object' && result._meta !== null ? result._meta : {};
  const hints = CACHE_HINTS[method];
  return {
    ...result,
    resultType: 'complete',
    _meta: { ...meta, [SERVER_INFO_META]: SERVER_INFO },
    ...(hints ? { ...hints, ...(partial ? { ttlMs: 0 } : {}) } : {}),
  };
}

/**
 * An answer for a modern client: a result shaped as above; an error whose
 * code is an upstream server's "resource not found" (-32002, which
 * 2026-07-28 replaced by -32602) or a code of the range the specification
 * keeps for its own errors (an upstream's, on its older revision: the
 * gateway raises none there but its own checks of the request, answered
 * before any method runs) is carried as invalid params or as the gateway's
 * server error.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/index#error-codes
 */
export function modernAnswer(method: string, answer: object): object {
  const a = answer as { result?: Record<string, unknown>; error?: { code: number } };
  if (a.result) return { ...answer, result: modernResult(method, a.result, false) };
  if (!a.error) return answer;
  const { code } = a.error;
  const mapped = code === -32002 ? JSON_RPC.invalidParams : code <= -32020 && code >= -32099 ? JSON_RPC.serverError : code;
  return { ...answer, error: { ...a.error, code: mapped } };
}

/** The HTTP status of a modern answer: 404 for a method the gateway does not serve (so a client tells it from a server without the endpoint), else 200. */
export function modernStatus(answer: object): number {
  return (answer as { error?: { code: number } }).error?.code === JSON_RPC.methodNotFound ? 404 : 200;
}
