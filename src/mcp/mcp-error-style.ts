import type { ErrorStyle } from '../http/error-style';
import { refusalMessage } from './json-rpc';
import { resourceMetadataUrl } from './protected-resource-metadata';

/**
 * How `/mcp` words a refusal made before any JSON-RPC message was read
 * (the API key, the body, the method, the Origin): a JSON-RPC error with no
 * id, the gateway's envelope fields in `data`. A 401 points to the
 * resource's metadata, as MCP's authorization asks.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-location
 */
export function mcpErrorStyle(publicUrl: string | undefined): ErrorStyle {
  return {
    body: (err, requestId) => refusalMessage(null, err, requestId),
    headers: (_requestId, err, req): Record<string, string> => {
      if (!err || !req || err.status !== 401) return {};
      const invalid = err.code === 'invalid_api_key' ? ', error="invalid_token"' : '';
      return { 'WWW-Authenticate': `Bearer resource_metadata="${resourceMetadataUrl(req, publicUrl)}"${invalid}` };
    },
  };
}
