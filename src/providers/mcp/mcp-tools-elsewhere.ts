/**
 * Why a model call that names an MCP tool (`{"type": "mcp"}`) is refused on
 * every model endpoint: the gateway does not run a model's tool loop yet;
 * MCP tools are served to MCP clients at `/mcp`, with the same keys, limits
 * and records.
 */
export const MCP_TOOLS_ELSEWHERE = 'MCP tools are served through /mcp for now (connect an MCP client to it with this API key); a model call cannot name them';

export function isMcpTool(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && (tool as { type?: unknown }).type === 'mcp';
}
