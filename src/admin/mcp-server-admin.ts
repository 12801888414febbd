import { z } from 'zod';
import type { CatalogSync } from '../catalog/catalog-sync';
import { mcpServerSchema, type McpServerConfig } from '../config/gateway-config-schema';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import type { McpServerHealth } from '../providers/mcp/mcp-server-health';
import { editCatalog, type CatalogDocument } from './catalog-edit';

/** An MCP server as the admin API shows it: its catalog entry (defaults filled in, secrets named by variable) and its health on this instance. */
export interface McpServerView {
  object: 'mcp_server';
  name: string;
  url: string;
  transport: McpServerConfig['transport'];
  auth: McpServerConfig['auth'];
  private: boolean;
  timeout_ms: number;
  enabled: boolean;
  price_per_call: string | null;
  tool_prices: Record<string, string>;
  health: { last_success_at: string | null; last_failure_at: string | null; last_error: string | null };
}

const enabledSchema = z.strictObject({ enabled: z.boolean() });

/**
 * The operator's MCP servers (`mcp.servers` of the catalog), for both admin
 * doors: list them with their health, add, change, switch on or off and
 * remove one. Each write is a catalog edit, validated in full and stored as
 * the next revision, so it reaches every instance as any catalog edit does:
 * a field out of range is a 400 naming it, a secret variable the
 * environment lacks refuses the edit (`invalid_catalog`), and an address
 * the SSRF rule forbids (a private one on a server not declared `private`)
 * is refused when the server is called, and shows in its health.
 */
export class McpServerAdmin {
  constructor(
    private readonly sync: CatalogSync,
    private readonly health: McpServerHealth,
  ) {}

  list(): McpServerView[] {
    return this.sync.catalog.contents.config.mcp.servers.map((server) => this.view(server));
  }

  get(name: string): McpServerView {
    const server = this.sync.catalog.contents.config.mcp.servers.find((s) => s.name === name);
    if (!server) throw serverNotFound(name);
    return this.view(server);
  }

  /** Adds a server: the body is its catalog entry. */
  async add(body: unknown): Promise<McpServerView> {
    // Validated here so that a bad field is named as the body's; stored as sent, its defaults left to the catalog.
    parseRequest(mcpServerSchema, body);
    const entry = body as Record<string, unknown>;
    await editCatalog(this.sync, (document) => {
      const servers = serversOf(document);
      if (servers.some((s) => s.name === entry.name)) throw new GatewayError('mcp_server_exists', `An MCP server "${String(entry.name)}" is in the catalog already.`, { param: 'name' });
      servers.push(entry);
      return document;
    });
    return this.get(String(entry.name));
  }

  /** Changes the fields the body names (null puts a field back to its default); the name stays. */
  async update(name: string, body: unknown): Promise<McpServerView> {
    const change = parseRequest(z.record(z.string(), z.unknown()), body);
    if (Object.keys(change).length === 0) throw Errors.validation('', 'The change names nothing: send the fields to change.');
    if (change.name !== undefined && change.name !== name) throw Errors.validation('name', 'cannot change: remove the server and add it under its new name.');
    await editCatalog(this.sync, (document) => {
      const servers = serversOf(document);
      const at = indexOf(servers, name);
      const changed: Record<string, unknown> = { ...servers[at] };
      for (const [field, value] of Object.entries(change)) {
        if (value === null) delete changed[field];
        else changed[field] = value;
      }
      parseRequest(mcpServerSchema, changed);
      servers[at] = changed;
      return document;
    });
    return this.get(name);
  }

  async setEnabled(name: string, body: unknown): Promise<McpServerView> {
    const { enabled } = parseRequest(enabledSchema, body);
    return this.update(name, { enabled });
  }

  async remove(name: string): Promise<{ object: 'mcp_server'; name: string; deleted: true }> {
    await editCatalog(this.sync, (document) => {
      const servers = serversOf(document);
      servers.splice(indexOf(servers, name), 1);
      return document;
    });
    return { object: 'mcp_server', name, deleted: true };
  }

  private view(server: McpServerConfig): McpServerView {
    const health = this.health.of(server.name);
    return {
      object: 'mcp_server',
      name: server.name,
      url: server.url,
      transport: server.transport,
      auth: server.auth,
      private: server.private,
      timeout_ms: server.timeout_ms,
      enabled: server.enabled,
      price_per_call: server.price_per_call ?? null,
      tool_prices: server.tool_prices,
      health: {
        last_success_at: health.lastSuccessAt?.toISOString() ?? null,
        last_failure_at: health.lastFailureAt?.toISOString() ?? null,
        last_error: health.lastError,
      },
    };
  }
}

/** The document's server list, made when the document has none yet. */
function serversOf(document: CatalogDocument): Array<Record<string, unknown>> {
  document.mcp ??= {};
  document.mcp.servers ??= [];
  return document.mcp.servers;
}

function indexOf(servers: Array<Record<string, unknown>>, name: string): number {
  const at = servers.findIndex((s) => s.name === name);
  if (at < 0) throw serverNotFound(name);
  return at;
}

function serverNotFound(name: string): GatewayError {
  return new GatewayError('mcp_server_not_found', `No MCP server "${name}" in the catalog.`);
}
