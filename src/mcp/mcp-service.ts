import type { Span } from '@opentelemetry/api';
import { z } from 'zod';
import { MCP_CALL_DIMENSION, mcpPricedAs } from '../billing/price-table';
import type { MeasuredUsage } from '../billing/usage-record';
import type { McpToolCall } from '../billing/usage-record-columns';
import type { Catalog } from '../catalog/catalog';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import type { Principal } from '../keys/principal';
import { coveredByScope, mayUseMcpTool } from '../keys/mcp-tool-scope';
import { CLIENT_CLOSED_REQUEST } from '../model-call/route-attempts';
import type { RequestContext } from '../model-call/request-context';
import { toGatewayError } from '../model-call/to-gateway-error';
import type { Logger } from '../observability/logger';
import { McpServerError } from '../providers/mcp/mcp-server-error';
import type { McpUpstream } from '../providers/mcp/mcp-upstream';
import { listPageSchema, promptSchema, resourceSchema, toolSchema } from '../providers/mcp/mcp-wire';
import type { ResolvedMcpServer } from '../providers/mcp/resolved-mcp-server';
import { UpstreamError } from '../providers/upstream-error';
import { namespacedName, namespacedUri, splitNamespacedName, splitNamespacedUri, wholeServerPattern } from './namespaced-names';

export const MCP_ENDPOINT = '/mcp';

/** Who asks for a list, and the abort that stops its upstream calls. */
export interface McpCaller {
  principal: Principal;
  signal: AbortSignal;
  logger: Logger;
  span?: Span;
}

/** A server that did not answer a list, named in the list's `_meta`. */
export interface UnavailableServer {
  server: string;
  error: string;
}

/** The most pages of one upstream list followed for one aggregated list. */
const MAX_UPSTREAM_PAGES = 20;

const toolCallParamsSchema = z.looseObject({ name: z.string().min(1).max(300), arguments: z.record(z.string(), z.unknown()).optional() });
const promptGetParamsSchema = z.looseObject({ name: z.string().min(1).max(300), arguments: z.record(z.string(), z.string()).optional() });
const resourceReadParamsSchema = z.looseObject({ uri: z.string().min(1).max(8192) });

type ListKind = 'tools' | 'resources' | 'prompts';
const LIST_ITEMS = { tools: toolSchema, resources: resourceSchema, prompts: promptSchema } as const;

/**
 * The MCP gateway: one tool list per key over the operator's MCP servers
 * (`mcp.servers`), each server's tools named `<server>__<tool>` and kept to
 * the key's `mcp_tools` allowlist; calls routed to their server with the
 * gateway's credentials for it, each one a model call: a usage record,
 * the key's and account's rate limits, and the server's price per call
 * held before it under spend control and settled by the record. Resources
 * and prompts are passed through the same way, for keys that may use
 * every tool of their server.
 */
export class McpService {
  constructor(
    private readonly catalog: Catalog,
    private readonly upstream: McpUpstream,
  ) {
    // A server edited, disabled or removed: the connections opened to it as it was are ended.
    catalog.onReplace((contents) => upstream.keepOnly(contents.mcpServers));
  }

  /** Every tool of the servers the key may use (of `servers` only, when named), namespaced, with the servers that did not answer. */
  listTools(caller: McpCaller, servers?: ReadonlySet<string>): Promise<{ tools: Record<string, unknown>[]; unavailable: UnavailableServer[] }> {
    return this.aggregate(caller, 'tools', (server, tool) => {
      const name = namespacedName(server.name, String(tool.name));
      return mayUseMcpTool(caller.principal.mcpTools, name) ? { ...tool, name } : undefined;
    }, servers).then(({ items, unavailable }) => ({ tools: items, unavailable }));
  }

  listPrompts(caller: McpCaller): Promise<{ prompts: Record<string, unknown>[]; unavailable: UnavailableServer[] }> {
    return this.aggregate(caller, 'prompts', (server, prompt) => ({ ...prompt, name: namespacedName(server.name, String(prompt.name)) }))
      .then(({ items, unavailable }) => ({ prompts: items, unavailable }));
  }

  listResources(caller: McpCaller): Promise<{ resources: Record<string, unknown>[]; unavailable: UnavailableServer[] }> {
    return this.aggregate(caller, 'resources', (server, resource) => ({ ...resource, uri: namespacedUri(server.name, String(resource.uri)) }))
      .then(({ items, unavailable }) => ({ resources: items, unavailable }));
  }

  async getPrompt(caller: McpCaller, params: unknown): Promise<Record<string, unknown>> {
    const req = parseRequest(promptGetParamsSchema, params);
    const named = splitNamespacedName(req.name);
    const server = named && this.wholeServer(caller.principal, named.server, 'prompt', req.name);
    if (!named || !server) throw notFound('prompt', req.name);
    return this.relay(server, 'prompts/get', { ...req, name: named.name }, caller);
  }

  async readResource(caller: McpCaller, params: unknown): Promise<Record<string, unknown>> {
    const req = parseRequest(resourceReadParamsSchema, params);
    const named = splitNamespacedUri(req.uri);
    const server = named && this.wholeServer(caller.principal, named.server, 'resource', req.uri);
    if (!named || !server) throw notFound('resource', req.uri);
    const result = await this.relay(server, 'resources/read', { ...req, uri: named.uri }, caller);
    const contents = Array.isArray(result.contents) ? result.contents : [];
    return { ...result, contents: contents.map((c) => (c && typeof c === 'object' && typeof c.uri === 'string' ? { ...c, uri: namespacedUri(server.name, c.uri) } : c)) };
  }

  /**
   * One `tools/call`, on the call's usage ticket: named on the record (model
   * `mcp:<server>`), admitted under the rate limits (`admit`), checked
   * against the key's allowlist, its price held, sent to its server, and
   * settled with the server, the tool and the outcome. A tool that answers
   * `isError` is a call made (charged); no answer is a failure (uncharged).
   */
  async callTool(ctx: RequestContext, params: unknown, admit: () => Promise<void>): Promise<Record<string, unknown>> {
    const req = parseRequest(toolCallParamsSchema, params);
    const named = splitNamespacedName(req.name);
    ctx.ticket.noteRequestedModel(`mcp:${named?.server ?? req.name}`);
    await admit();
    if (!named) throw notFound('tool', req.name, 'MCP tools are named <server>__<tool>; tools/list lists them.');
    if (!mayUseMcpTool(ctx.principal.mcpTools, req.name)) throw new GatewayError('mcp_tool_not_allowed', `This key may not use the MCP tool "${req.name}".`, { param: 'name' });
    const server = this.catalog.mcpServers().find((s) => s.name === named.server);
    if (!server) throw notFound('tool', req.name);
    const call: McpToolCall = { server: server.name, tool: named.name, outcome: 'failed' };
    const pricedAs = mcpPricedAs(server.config, named.name);
    const servedBy = { provider: `mcp:${server.name}`, upstream_model: named.name, lane: pricedAs.lane, attempts: 1 };
    const settlement = { pricedAs, servedBy, ttftMs: null, wasStreaming: false };
    try {
      if (ctx.principal.spendControlled) {
        await ctx.spend.place([{ ...pricedAs, maxInputTokens: 0, maxOutputTokens: 0, contextWindow: 0 }], { promptTokens: 0, outputCap: 0, dimensions: [ONE_CALL] });
      }
      const result = await this.upstream.request(server, 'tools/call', { ...req, name: named.name }, { signal: ctx.signal, span: ctx.span });
      call.outcome = result.isError === true ? 'tool_error' : 'ok';
      ctx.logger.info('mcp tool called', { server: server.name, tool: named.name, outcome: call.outcome });
      await ctx.ticket.settle({ ...settlement, statusCode: 200, usage: toolCallUsage(server.name), charge: true, errorCode: null, mcp: call });
      return result;
    } catch (err) {
      const told = ctx.signal.aborted ? undefined : toldError(err);
      const statusCode = told?.status ?? CLIENT_CLOSED_REQUEST;
      await ctx.ticket.settle({ ...settlement, statusCode, usage: null, charge: false, errorCode: told?.code ?? 'client_closed_request', mcp: call });
      throw told ?? err;
    }
  }

  /** Whether the catalog registers (and enables) an MCP server of this name. */
  hasServer(name: string): boolean {
    return this.catalog.mcpServers().some((s) => s.name === name);
  }

  /** Ends the upstream connections that stay open (the event streams of HTTP+SSE servers). */
  close(): void {
    this.upstream.close();
  }

  /** A server whose resources or prompts the key may see: one it may use every tool of. */
  private wholeServer(principal: Principal, name: string, what: string, asked: string): ResolvedMcpServer | undefined {
    const server = this.catalog.mcpServers().find((s) => s.name === name);
    if (server && !coveredByScope(principal.mcpTools, wholeServerPattern(name))) {
      throw new GatewayError('mcp_tool_not_allowed', `This key may not use the ${what} "${asked}": resources and prompts of an MCP server are for keys that may use all of its tools.`);
    }
    return server;
  }

  private async relay(server: ResolvedMcpServer, method: string, params: Record<string, unknown>, caller: McpCaller): Promise<Record<string, unknown>> {
    try {
      return await this.upstream.request(server, method, params, { signal: caller.signal, span: caller.span });
    } catch (err) {
      throw toldError(err) ?? err;
    }
  }

  /**
   * One list over every server the key may use, asked of all at once: a
   * server that fails or is slow is left out and named, never fails the
   * list. `admit` keeps an item (namespaced) or drops it.
   */
  private async aggregate(caller: McpCaller, kind: ListKind, admit: (server: ResolvedMcpServer, item: Record<string, unknown>) => Record<string, unknown> | undefined, only?: ReadonlySet<string>) {
    const servers = this.catalog.mcpServers().filter((s) => (!only || only.has(s.name)) && (kind === 'tools' || coveredByScope(caller.principal.mcpTools, wholeServerPattern(s.name))));
    const lists = await Promise.all(servers.map(async (server) => {
      try {
        const capabilities = await this.upstream.capabilities(server, { signal: caller.signal, span: caller.span });
        if (!capabilities[kind]) return { server, items: [] };
        return { server, items: await this.listAll(server, kind, caller) };
      } catch (err) {
        const reason = toldError(err)?.message ?? 'internal error';
        caller.logger.warn('mcp server left out of a list', { server: server.name, list: kind, reason });
        return { server, failed: reason };
      }
    }));
    const items: Record<string, unknown>[] = [];
    const unavailable: UnavailableServer[] = [];
    for (const list of lists) {
      if ('failed' in list) unavailable.push({ server: list.server.name, error: list.failed! });
      else for (const item of list.items) {
        const kept = admit(list.server, item);
        if (kept) items.push(kept);
      }
    }
    return { items, unavailable };
  }

  private async listAll(server: ResolvedMcpServer, kind: ListKind, caller: McpCaller): Promise<Record<string, unknown>[]> {
    const page = listPageSchema(kind, LIST_ITEMS[kind]);
    const items: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < MAX_UPSTREAM_PAGES; n++) {
      const result = await this.upstream.request(server, `${kind}/list`, cursor ? { cursor } : undefined, { signal: caller.signal, span: caller.span });
      const parsed = page.safeParse(result);
      if (!parsed.success) throw new UpstreamError(`MCP server "${server.name}" answered ${kind}/list malformed`, { status: 502, retryable: false, cause: 'malformed_answer' });
      items.push(...(parsed.data[kind] as Record<string, unknown>[]));
      cursor = parsed.data.nextCursor;
      if (!cursor) break;
    }
    return items;
  }
}

const ONE_CALL = { name: MCP_CALL_DIMENSION, quantity: 1, unit: 'calls' };

/** A tool call's usage: one call, no tokens. */
function toolCallUsage(server: string): MeasuredUsage {
  return {
    promptTokens: 0,
    completionTokens: 0,
    dimensions: [ONE_CALL],
    measurement: { input: 'unavailable', output: 'unavailable' },
    providerUsage: { family: 'mcp', raw_fields: { server } },
  };
}

function notFound(what: string, name: string, hint = ''): GatewayError {
  return new GatewayError('mcp_tool_not_found', `No MCP ${what} "${name}" on this gateway.${hint ? ` ${hint}` : ''}`, { param: what === 'resource' ? 'uri' : 'name' });
}

/**
 * What the client is told of an upstream failure: the server's own
 * JSON-RPC error, or the gateway's upstream error with the server named
 * (the messages the protocol client writes name the server and say what
 * failed, without anything the server sent).
 */
function toldError(err: unknown): GatewayError | undefined {
  if (err instanceof McpServerError) return new GatewayError('mcp_server_error', err.message, { details: { server: err.server, jsonrpc_code: err.code } });
  const mapped = toGatewayError(err);
  if (mapped && err instanceof UpstreamError) return new GatewayError(mapped.registryCode, `${err.message}.`, { ...mapped.options, param: null });
  return mapped;
}
