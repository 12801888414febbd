import { InvalidMessage, JSON_RPC } from './json-rpc';
import type { McpCaller, McpService, UnavailableServer } from './mcp-service';
import { modernResult, SERVER_INFO } from './modern-answers';
import { negotiateRevision, SERVED_REVISIONS } from './protocol-revisions';
import type { RequestRevision } from './request-revision';

/** `_meta` key naming the servers a list left out (a prefix of its own, as MCP asks of extensions). */
export const UNAVAILABLE_SERVERS_META = 'model-gateway/unavailable_servers';

const INSTRUCTIONS = "The tools of the MCP servers this gateway's operator registered, named <server>__<tool>, as far as this API key may use them.";

/** The methods only one era has: the handshake and `ping` are legacy, `server/discover` modern (2026-07-28 removed the first two). */
const LEGACY_ONLY = new Set(['initialize', 'ping']);
const MODERN_ONLY = new Set(['server/discover']);

/**
 * The methods `/mcp` answers (other than `tools/call`, a model call of its
 * own), each one service call: the lifecycle (`initialize` and `ping` for
 * the legacy revisions, `server/discover` for the stateless one), and the
 * lists and reads of tools, prompts and resources. A modern request's
 * result is shaped as its revision asks (`modern-answers.ts`).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/discover
 */
export async function answerMethod(mcp: McpService, caller: McpCaller, method: string, params: Record<string, unknown> | undefined, revision: RequestRevision): Promise<Record<string, unknown>> {
  const modern = revision.era === 'modern';
  if (modern ? LEGACY_ONLY.has(method) : MODERN_ONLY.has(method)) {
    throw new InvalidMessage(JSON_RPC.methodNotFound, `Method "${method}" is not part of MCP ${modern ? revision.revision : 'before 2026-07-28'}, which this request speaks.`);
  }
  const result = await resultOf(mcp, caller, method, params);
  return modern ? modernResult(method, result, result._meta !== undefined && UNAVAILABLE_SERVERS_META in (result._meta as object)) : result;
}

async function resultOf(mcp: McpService, caller: McpCaller, method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: negotiateRevision(params?.protocolVersion),
        capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS,
      };
    case 'server/discover':
      return { supportedVersions: [...SERVED_REVISIONS], capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS };
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
