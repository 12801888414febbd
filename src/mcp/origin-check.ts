import { GatewayError } from '../errors/gateway-error';
import type { HttpRequest, HttpResponse, Next } from '../http/http-types';
import { publicBaseUrl } from './protected-resource-metadata';

/**
 * The Streamable HTTP transport's guard against DNS rebinding: a request
 * whose `Origin` is neither absent (not from a browser), nor the gateway's
 * own, nor one the operator allows (`GATEWAY_MCP_ALLOWED_ORIGINS`) is
 * refused with 403.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
export function originCheck(allowed: readonly string[], publicUrl: string | undefined) {
  const allowedSet = new Set(allowed);
  return (req: HttpRequest, _res: HttpResponse, next: Next): void => {
    const origin = req.headers.origin?.trim().toLowerCase();
    if (!origin || origin === publicBaseUrl(req, publicUrl).toLowerCase() || allowedSet.has(origin)) return next();
    next(new GatewayError('origin_not_allowed', `Requests from the web origin ${origin} are not allowed on /mcp; the operator can allow it in GATEWAY_MCP_ALLOWED_ORIGINS.`));
  };
}
