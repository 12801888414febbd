/**
 * The MCP revisions `/mcp` serves, newest first, in two eras. The modern
 * one (2026-07-28) is stateless: every request carries its revision, client
 * and capabilities in `_meta` and the `MCP-Protocol-Version` header, and
 * `server/discover` replaces the handshake. The legacy ones open with
 * `initialize`, which negotiates one of them; a client that proposes the
 * modern revision there is answered with the newest legacy one, since a
 * handshake selects legacy semantics.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export const MODERN_REVISIONS = ['2026-07-28'] as const;
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18'] as const;
export const SERVED_REVISIONS = [...MODERN_REVISIONS, ...LEGACY_REVISIONS] as const;

export type ModernRevision = (typeof MODERN_REVISIONS)[number];
export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];
export type ServedRevision = (typeof SERVED_REVISIONS)[number];

export const LATEST_LEGACY_REVISION: LegacyRevision = LEGACY_REVISIONS[0];

/** The revision to answer `initialize` with: the client's when it is a served legacy one, else the newest legacy one. */
export function negotiateRevision(requested: unknown): LegacyRevision {
  return isLegacyRevision(requested) ? requested : LATEST_LEGACY_REVISION;
}

export function isServedRevision(value: unknown): value is ServedRevision {
  return (SERVED_REVISIONS as readonly unknown[]).includes(value);
}

export function isModernRevision(value: unknown): value is ModernRevision {
  return (MODERN_REVISIONS as readonly unknown[]).includes(value);
}

export function isLegacyRevision(value: unknown): value is LegacyRevision {
  return (LEGACY_REVISIONS as readonly unknown[]).includes(value);
}
