import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import { Router } from 'express';
import { MCP_ENDPOINT } from './mcp-service';

/** Where RFC 9728 puts a resource's metadata: the well-known path, and the same suffixed with the resource's path. */
const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The gateway's address as the client reached it: the configured public URL, else the request's Host. */
export function publicBaseUrl(req: IncomingMessage, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const scheme = req.socket instanceof TLSSocket ? 'https' : 'http';
  return `${scheme}://${req.headers.host ?? 'localhost'}`;
}

/** The metadata URL a 401 from `/mcp` points to (`WWW-Authenticate: Bearer resource_metadata="…"`). */
export function resourceMetadataUrl(req: IncomingMessage, publicUrl: string | undefined): string {
  return `${publicBaseUrl(req, publicUrl)}${METADATA_PATH}${MCP_ENDPOINT}`;
}

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for `/mcp`, open to
 * all: the resource takes bearer tokens in the `Authorization` header,
 * and those tokens are the gateway's API keys, issued by its operator
 * (there is no authorization server to send a client to, so none is named).
 * @see https://www.rfc-editor.org/rfc/rfc9728#section-3
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
export function protectedResourceMetadataRouter(publicUrl: string | undefined): Router {
  const router = Router();
  router.get([METADATA_PATH, `${METADATA_PATH}${MCP_ENDPOINT}`], (req, res) => {
    const base = publicBaseUrl(req, publicUrl);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json({
      resource: `${base}${MCP_ENDPOINT}`,
      resource_name: 'Model gateway MCP endpoint',
      bearer_methods_supported: ['header'],
      // An extension (RFC 9728 §2 allows others): what the bearer tokens are, since no authorization server issues them.
      bearer_token_issuer: 'operator',
      bearer_token_description: "An API key of this gateway (or a temporary credential minted with one), issued by its operator; sent as Authorization: Bearer.",
    });
  });
  return router;
}
