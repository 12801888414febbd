import type { GatewayConfig, McpServerConfig } from '../../config/gateway-config-schema';
import { ProviderConfigError } from '../resolved-provider';

/** The OAuth 2.0 client-credentials grant an upstream MCP server takes, its secrets read from the environment. */
export interface ClientCredentialsGrant {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string | undefined;
}

/** An enabled upstream MCP server with its credentials resolved: what the protocol client needs to call it. */
export interface ResolvedMcpServer {
  name: string;
  url: string;
  /** `streamable_http`, or `sse` (the HTTP+SSE transport of revision 2024-11-05: `url` is its event stream). */
  transport: McpServerConfig['transport'];
  /** Fixed headers the operator configured (values from environment variables). */
  headers: Record<string, string>;
  /** Set when the server takes a client-credentials token. */
  oauth: ClientCredentialsGrant | null;
  /** Connect only to public addresses (the SSRF guard), unless the operator declared the server private. */
  publicOnly: boolean;
  timeoutMs: number;
  /** The server's catalog entry, for its prices. */
  config: McpServerConfig;
}

/**
 * Resolves the enabled MCP servers to their addresses and credentials. A
 * variable the catalog names but the environment lacks is a configuration
 * error, as a missing provider key is: the catalog is refused, not served
 * with a server that cannot be reached.
 */
export function resolveMcpServers(config: GatewayConfig, env: NodeJS.ProcessEnv): ResolvedMcpServer[] {
  return config.mcp.servers.filter((s) => s.enabled).map((server) => {
    const read = (variable: string, what: string): string => {
      const value = env[variable];
      if (!value) throw new ProviderConfigError(`MCP server "${server.name}": the environment variable ${variable} (${what}) is not set`);
      return value;
    };
    const { auth } = server;
    const headers = auth.type === 'headers' ? Object.fromEntries(Object.entries(auth.headers).map(([name, variable]) => [name.toLowerCase(), read(variable, `header ${name}`)])) : {};
    const oauth = auth.type === 'oauth_client_credentials'
      ? { tokenUrl: auth.token_url, clientId: read(auth.client_id_env, 'client_id_env'), clientSecret: read(auth.client_secret_env, 'client_secret_env'), scope: auth.scope }
      : null;
    return { name: server.name, url: server.url, transport: server.transport, headers, oauth, publicOnly: !server.private, timeoutMs: server.timeout_ms, config: server };
  });
}
