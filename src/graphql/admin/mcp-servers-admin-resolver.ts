import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { McpServerView } from '../../admin/mcp-server-admin';
import type { AdminGraphqlContext } from './admin-context';
import { AddMcpServerInput, McpServer, McpServerRemoval, UpdateMcpServerInput } from './admin-types';

/** The catalog's MCP servers: the admin REST calls of /api/admin/mcp/servers, through the same McpServerAdmin (each write a catalog revision). */
@Resolver()
export class McpServersAdminResolver {
  @Query(() => [McpServer], { description: "The catalog's MCP servers, enabled or not, with their health on the instance that answers." })
  mcpServers(@Ctx() ctx: AdminGraphqlContext): McpServer[] {
    return ctx.admin.mcpServers.list().map(mcpServer);
  }

  @Mutation(() => McpServer, { description: 'Adds an MCP server to the catalog (the next revision, on every instance).' })
  async addMcpServer(@Arg('input', () => AddMcpServerInput) input: AddMcpServerInput, @Ctx() ctx: AdminGraphqlContext): Promise<McpServer> {
    return mcpServer(await ctx.admin.mcpServers.add(restFields(input)));
  }

  @Mutation(() => McpServer, { description: "Changes an MCP server's fields; null puts a field back to its default." })
  async updateMcpServer(@Arg('name', () => ID) name: string, @Arg('input', () => UpdateMcpServerInput) input: UpdateMcpServerInput, @Ctx() ctx: AdminGraphqlContext): Promise<McpServer> {
    return mcpServer(await ctx.admin.mcpServers.update(name, restFields(input)));
  }

  @Mutation(() => McpServer, { description: 'Switches an MCP server on or off: its tools leave /mcp while it is off.' })
  async setMcpServerEnabled(@Arg('name', () => ID) name: string, @Arg('enabled') enabled: boolean, @Ctx() ctx: AdminGraphqlContext): Promise<McpServer> {
    return mcpServer(await ctx.admin.mcpServers.setEnabled(name, { enabled }));
  }

  @Mutation(() => McpServerRemoval, { description: 'Removes an MCP server from the catalog.' })
  async removeMcpServer(@Arg('name', () => ID) name: string, @Ctx() ctx: AdminGraphqlContext): Promise<McpServerRemoval> {
    return ctx.admin.mcpServers.remove(name);
  }
}

const REST_NAMES: Record<string, string> = { timeoutMs: 'timeout_ms', pricePerCall: 'price_per_call', toolPrices: 'tool_prices' };

/** The input in the REST shape, fields left out left out (and nulls kept: they put a field back to its default). */
function restFields(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined).map(([field, value]) => [REST_NAMES[field] ?? field, value]));
}

function mcpServer(v: McpServerView): McpServer {
  return {
    name: v.name, url: v.url, transport: v.transport, auth: v.auth, private: v.private, timeoutMs: v.timeout_ms, enabled: v.enabled,
    pricePerCall: v.price_per_call, toolPrices: v.tool_prices,
    health: {
      lastSuccessAt: v.health.last_success_at ? new Date(v.health.last_success_at) : null,
      lastFailureAt: v.health.last_failure_at ? new Date(v.health.last_failure_at) : null,
      lastError: v.health.last_error,
    },
  };
}
