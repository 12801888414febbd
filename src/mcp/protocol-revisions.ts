/**
 * The MCP revisions `/mcp` serves, newest first. 2026-07-28, the stateless
 * revision (no `initialize`, `server/discover`, per-request `_meta`), is
 * not served yet: a client that proposes it in `initialize` is answered
 * with the newest revision below, as the lifecycle's negotiation says.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export const SERVED_REVISIONS = ['2025-11-25', '2025-06-18'] as const;

export type ServedRevision = (typeof SERVED_REVISIONS)[number];

export const LATEST_REVISION: ServedRevision = SERVED_REVISIONS[0];

/** The revision to answer `initialize` with: the client's when it is served, else the newest. */
export function negotiateRevision(requested: unknown): ServedRevision {
  return isServedRevision(requested) ? requested : LATEST_REVISION;
}

export function isServedRevision(value: unknown): value is ServedRevision {
  return (SERVED_REVISIONS as readonly unknown[]).includes(value);
}
