import type { IncomingMessage } from 'node:http';
import { toEnvelope, type GatewayError } from '../errors/gateway-error';

/**
 * How one client dialect words a refusal: the body of an error answer, and
 * the event that ends a stream that failed after it started. The gateway's
 * own envelope (`{"error": {message, type, code, param, request_id}}`) is
 * the default; a door that speaks another provider's API (Anthropic's
 * `{"type": "error", "error": {type, message}}`, Google's `google.rpc.Status`)
 * declares its own on its routes (`DirectRoute.errorStyle`), so that its
 * clients' SDKs read every refusal, the API key's and the rate limit's
 * included. Status codes and the request id header are the gateway's in
 * every dialect.
 */
export interface ErrorStyle {
  body(err: GatewayError, requestId: string): object;
  /** Headers the dialect adds to an error answer (Anthropic's `request-id`; MCP's `WWW-Authenticate` on a 401), beside the gateway's own. */
  headers?(requestId: string, err?: GatewayError, req?: IncomingMessage): Record<string, string>;
}

export const GATEWAY_ERRORS: ErrorStyle = { body: toEnvelope };
