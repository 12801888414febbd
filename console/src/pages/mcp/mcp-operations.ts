/** The admin GraphQL operations of the MCP page, and the shapes it reads. */

export interface McpServer {
  name: string;
  url: string;
  transport: string;
  auth: { type: string; headers?: Record<string, string> } & Record<string, unknown>;
  private: boolean;
  timeoutMs: number;
  enabled: boolean;
  pricePerCall: string | null;
  health: { lastSuccessAt: string | null; lastFailureAt: string | null; lastError: string | null };
}

const SERVER_FIELDS = 'name url transport auth private timeoutMs enabled pricePerCall health { lastSuccessAt lastFailureAt lastError }';

export const MCP_SERVERS_QUERY = `query ConsoleMcpServers { mcpServers { ${SERVER_FIELDS} } }`;

// Writes: each is one admin mutation (a catalog revision), refused by the gateway as its REST twin is.

export const ADD_MCP_SERVER = `mutation ConsoleAddMcpServer($input: AddMcpServerInput!) { addMcpServer(input: $input) { ${SERVER_FIELDS} } }`;

export const UPDATE_MCP_SERVER = `mutation ConsoleUpdateMcpServer($name: ID!, $input: UpdateMcpServerInput!) { updateMcpServer(name: $name, input: $input) { ${SERVER_FIELDS} } }`;

export const SET_MCP_SERVER_ENABLED = `mutation ConsoleSetMcpServerEnabled($name: ID!, $enabled: Boolean!) { setMcpServerEnabled(name: $name, enabled: $enabled) { name enabled } }`;

export const REMOVE_MCP_SERVER = `mutation ConsoleRemoveMcpServer($name: ID!) { removeMcpServer(name: $name) { name deleted } }`;
