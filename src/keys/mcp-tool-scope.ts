import { z } from 'zod';

/**
 * Which MCP tools a key may use, by namespaced name (`<server>__<tool>`):
 * patterns where `*` stands for any run of characters (`weather__*`,
 * `search__query`, `*`). A key's list of patterns is null for every tool;
 * an empty list allows none. A temporary credential is held to its own list
 * and its parent's current one, both, so it is never wider: its scope is a
 * list of allowlists, each of which must allow a tool.
 */
export type McpToolScope = ReadonlyArray<readonly string[]>;

/** Every tool: no allowlist applies. */
export const EVERY_MCP_TOOL: McpToolScope = [];

export const mcpToolPatternSchema = z.string().regex(/^[A-Za-z0-9_.\-/*]{1,200}$/, 'a tool name or pattern: letters, digits, _ . - / and * (any characters)');

/** The scope of a key with its own list and, for a credential, its parent's (null: no list of its own). */
export function mcpToolScope(own: readonly string[] | null, parent: readonly string[] | null): McpToolScope {
  return [own, parent].filter((list): list is readonly string[] => list !== null);
}

/** Whether the scope allows the tool of this namespaced name. */
export function mayUseMcpTool(scope: McpToolScope, name: string): boolean {
  return scope.every((list) => list.some((pattern) => patternMatches(pattern, name)));
}

/**
 * Whether every name `pattern` matches is allowed by the scope: some
 * pattern of each list matches `pattern` read as a plain name (its `*` as
 * characters), which holds exactly when that pattern covers all of its
 * names. What a credential's own list may name at minting.
 */
export function coveredByScope(scope: McpToolScope, pattern: string): boolean {
  return mayUseMcpTool(scope, pattern);
}

const compiled = new Map<string, RegExp>();

function patternMatches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  let re = compiled.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.\-/]/g, '\\$&')).join('.*')}$`, 's');
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(pattern, re);
  }
  return re.test(name);
}
