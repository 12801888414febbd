import { InvalidMessage, JSON_RPC } from './json-rpc';
import type { McpCaller, McpService, UnavailableServer } from './mcp-service';
import { negotiateRevision } from './protocol-revisions';

const SERVER_INFO = { name: 'model-gateway', title: 'Model gateway', version: '1.0.0' };

/** `_meta` key naming the servers a list left out (a prefix of its own, as MCP asks of extensions). */
export const UNAVAILABLE_SERVERS_META = 'model-gateway/unavailable_servers';

/**
 * The methods `/mcp` answers (other than `tools/call`, a model call of its
 * own), each one service call: the lifecycle (`initialize`, `ping`), and the
 * lists and reads of tools, prompts and resources.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools
 */
export async function answerMethod(mcp: McpService, caller: McpCaller, method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: negotiateRevision(params?.protocolVersion),
        capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
        serverInfo: SERVER_INFO,
        instructions: "The tools of the MCP servers this gateway's operator registered, named <server>__<tool>, as far as this API key may use them.",
      };
    case 'ping':
      return {};
    case 'tools/list': {
      const { tools, unavailable } = await mcp.listTools(caller);
      return { tools, ...unavailableMeta(unavailable) };
    }
    case 'prompts/list': {
      const { prompts, unavailable } = await mcp.listPrompts(caller);
      return { prompts, ...unavailableMeta(unavailable) };
    }
    case 'resources/list': {
      const { resources, unavailable } = await mcp.listResources(caller);
      return { resources, ...unavailableMeta(unavailable) };
    }
    case 'prompts/get':
      return mcp.getPrompt(caller, params);
    case 'resources/read':
      return mcp.readResource(caller, params);
    default:
      throw new InvalidMessage(JSON_RPC.methodNotFound, `Method "${method}" is not served by this gateway.`);
  }
}

function unavailableMeta(unavailable: UnavailableServer[]): Record<string, unknown> {
  return unavailable.length ? { _meta: { [UNAVAILABLE_SERVERS_META]: unavailable } } : {};
}
