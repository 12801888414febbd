import { GatewayError } from '../errors/gateway-error';

/**
 * A model call's `{"type": "mcp"}` tool (OpenAI's Responses shape; chat
 * completions take the same object in `tools` as a gateway extension): one
 * of the operator's registered MCP servers, by its name in `mcp.servers`,
 * whose tools the gateway offers the model and runs itself. A server URL,
 * connector or credentials from the client are refused: the gateway calls
 * only the servers it registered, with its own credentials for them.
 */
export interface McpToolSpec {
  server: string;
  /** The server's own tool names the request narrows to; undefined offers every tool the key may use. */
  allowedTools: ReadonlySet<string> | undefined;
}

/** Fields of OpenAI's MCP tool that would point the gateway at a server (or credentials) the client chose. */
const CLIENT_SERVER_FIELDS = ['server_url', 'connector_id', 'headers', 'authorization'] as const;

/** Reads `tools[index]`, an MCP tool; a 400 naming the field that is wrong. */
export function readMcpToolSpec(tool: Record<string, unknown>, index: number): McpToolSpec {
  const at = (field: string) => `tools[${index}].${field}`;
  const label = tool.server_label;
  if (typeof label !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(label)) {
    throw invalid(at('server_label'), 'must name one of the MCP servers this gateway registered (letters, digits and -)');
  }
  for (const field of CLIENT_SERVER_FIELDS) {
    if (tool[field] !== undefined && tool[field] !== null) throw invalid(at(field), 'is not taken: the gateway calls only the MCP servers it registered, with its own credentials for them; name one in "server_label"');
  }
  const approval = tool.require_approval;
  if (approval !== undefined && approval !== null && approval !== 'never') {
    throw invalid(at('require_approval'), 'must be "never" (or left out): the gateway runs MCP tools without asking for approval');
  }
  return { server: label, allowedTools: readAllowedTools(tool.allowed_tools, at('allowed_tools')) };
}

function readAllowedTools(value: unknown, param: string): ReadonlySet<string> | undefined {
  if (value === undefined || value === null) return undefined;
  const names = Array.isArray(value) ? value : typeof value === 'object' ? (value as { tool_names?: unknown }).tool_names : undefined;
  if (!Array.isArray(names) || names.length > 128 || !names.every((n) => typeof n === 'string' && n.length > 0 && n.length <= 300)) {
    throw invalid(param, 'must be a list of the server\'s tool names (or {"tool_names": [...]}), at most 128');
  }
  return new Set(names as string[]);
}

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_parameter', `"${param}" ${message}.`, { param });
}
