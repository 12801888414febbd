import type { McpToolScope } from './mcp-tool-scope';

/** Who is calling: the API key and what it belongs to, as the request handlers see it. */
export interface Principal {
  keyId: string;
  accountId: string;
  projectId: string | null;
  memberId: string | null;
  keyName: string;
  /** Model ids or route names the key may use; null means every model. */
  allowedModels: ReadonlySet<string> | null;
  expiresAt: Date | null;
  /** The key a temporary credential was minted from; null for a key. */
  parentKeyId: string | null;
  /** Search result domains the key may receive; null means every domain. */
  allowedDomains: ReadonlySet<string> | null;
  /** MCP tools (`<server>__<tool>`) the key may use through `/mcp`: every allowlist in it must allow a tool; none: every tool. */
  mcpTools: McpToolScope;
  /** The account has a wallet: its paid calls place holds against it and its budgets. */
  spendControlled: boolean;
}

export function mayUseModel(principal: Principal, name: string): boolean {
  return principal.allowedModels === null || principal.allowedModels.has(name);
}

/**
 * The key whose "per key" limits a call counts against: the key itself, or
 * for a temporary credential the key that minted it, so that credentials
 * never multiply their parent's rate limits or open operations.
 */
export function rootKeyId(principal: Pick<Principal, 'keyId' | 'parentKeyId'>): string {
  return principal.parentKeyId ?? principal.keyId;
}
