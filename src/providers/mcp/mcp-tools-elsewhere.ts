/**
 * Where a model call that names an MCP tool (`{"type": "mcp"}`) is not
 * served: the gateway runs the tool loop itself for chat completions and
 * Responses on bridged models, streamed or not; a native Responses route
 * (whose upstream would have to be handed the server) is refused with
 * these words, and any other door that reaches the chat request's schema
 * with one with the first. MCP clients reach the same tools at `/mcp`.
 */
export const MCP_TOOLS_NOT_RUN_HERE = 'MCP tools ({"type": "mcp"}) are run by the gateway for chat completions and for models it serves through its Responses bridge, not here: connect an MCP client to /mcp with this API key';

export const MCP_TOOLS_NOT_NATIVE = 'MCP tools ({"type": "mcp"}) are run by the gateway for chat completions and for models it serves through its Responses bridge, not on a native Responses route (its upstream would have to be handed the MCP server): use such a model, or connect an MCP client to /mcp with this API key';

export function isMcpTool(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && (tool as { type?: unknown }).type === 'mcp';
}
