import type { GatewayError } from '../errors/gateway-error';

/**
 * JSON-RPC 2.0 as MCP uses it: one message per POST (batches were removed
 * in 2025-06-18), error codes from the JSON-RPC specification.
 * @see https://www.jsonrpc.org/specification#error_object
 */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** The start of the range JSON-RPC leaves to servers: every other refusal of the gateway. */
  serverError: -32000,
  /** Codes MCP 2026-07-28 defines in the part of that range it reserves (-32020 to -32099); the gateway requires no client capability, so never raises -32021. */
  headerMismatch: -32020,
  unsupportedProtocolVersion: -32022,
} as const;

export type JsonRpcId = string | number;

/** One message a client sent, by kind. */
export type ClientMessage =
  | { kind: 'request'; id: JsonRpcId; method: string; params: Record<string, unknown> | undefined }
  | { kind: 'notification'; method: string }
  /** An answer to a request of the server's: the gateway sends none, so there is nothing to match it to. */
  | { kind: 'response' };

/**
 * A message that is not JSON-RPC, or one the gateway cannot take as sent:
 * answered with this code and message (and `data`, where the specification
 * gives the error one), the request's id when it had a usable one, and
 * `status` as the HTTP status when the transport names one.
 */
export class InvalidMessage extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly id: JsonRpcId | null = null,
    readonly options: { data?: unknown; status?: number } = {},
  ) {
    super(message);
  }

  /** The JSON-RPC error answer. */
  answer(): object {
    return errorMessage(this.id, this.code, this.message, this.options.data);
  }
}

/** Reads a POST body as one JSON-RPC message; throws InvalidMessage for anything else. */
export function readClientMessage(body: unknown): ClientMessage {
  if (Array.isArray(body)) throw new InvalidMessage(JSON_RPC.invalidRequest, 'Batches are not supported (MCP 2025-06-18 removed them): send one JSON-RPC message per request.');
  if (typeof body !== 'object' || body === null) throw new InvalidMessage(JSON_RPC.invalidRequest, 'The body is not a JSON-RPC message (an object with "jsonrpc": "2.0").');
  const m = body as Record<string, unknown>;
  const id = typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id)) ? m.id : null;
  if (m.jsonrpc !== '2.0') throw new InvalidMessage(JSON_RPC.invalidRequest, '"jsonrpc" must be "2.0".', id);
  if (m.method === undefined && ('result' in m || 'error' in m)) return { kind: 'response' };
  if (typeof m.method !== 'string' || !m.method) throw new InvalidMessage(JSON_RPC.invalidRequest, '"method" must be a non-empty string.', id);
  if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))) {
    throw new InvalidMessage(JSON_RPC.invalidParams, '"params" must be an object.', id);
  }
  if (!('id' in m)) return { kind: 'notification', method: m.method };
  if (id === null) throw new InvalidMessage(JSON_RPC.invalidRequest, '"id" must be a string or a number (MCP requests never have a null id).');
  return { kind: 'request', id, method: m.method, params: m.params as Record<string, unknown> | undefined };
}

export function resultMessage(id: JsonRpcId, result: Record<string, unknown>): object {
  return { jsonrpc: '2.0', id, result };
}

export function errorMessage(id: JsonRpcId | null, code: number, message: string, data?: unknown): object {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

/** The JSON-RPC code of a gateway refusal: a malformed body is a parse error, a bad argument invalid params, an upstream server's own error keeps its code. */
export function jsonRpcCodeOf(err: GatewayError): number {
  switch (err.registryCode) {
    case 'invalid_json':
      return JSON_RPC.parseError;
    case 'json_too_deep':
    case 'invalid_parameter':
    case 'mcp_tool_not_found':
    case 'mcp_tool_not_allowed':
      return JSON_RPC.invalidParams;
    case 'mcp_server_error': {
      const code = err.options.details?.jsonrpc_code;
      return typeof code === 'number' ? code : JSON_RPC.serverError;
    }
    case 'internal_error':
      return JSON_RPC.internalError;
    default:
      return JSON_RPC.serverError;
  }
}

/** A gateway refusal as a JSON-RPC error: its code as above, the gateway's envelope fields in `data`. */
export function refusalMessage(id: JsonRpcId | null, err: GatewayError, requestId: string): object {
  return errorMessage(id, jsonRpcCodeOf(err), err.message, {
    code: err.code, type: err.type, request_id: requestId,
    ...(err.options.param ? { param: err.options.param } : {}),
    ...(err.options.details ? { details: err.options.details } : {}),
  });
}
