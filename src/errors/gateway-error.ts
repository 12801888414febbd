import { ERROR_CODES, errorType, type ErrorCode, type ErrorType } from './error-codes';

export interface GatewayErrorOptions {
  param?: string | null;
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
  /**
   * The upstream's own code, answered instead of `code` (only for the two
   * family codes `upstream_invalid_request` and `upstream_rate_limited`).
   */
  upstreamCode?: string;
}

/**
 * A refusal or failure the client is told about, in the envelope
 * `{"error": {"message", "type", "code", "param", "request_id", "details"?}}`.
 * Status and type come from the code's entry in the registry.
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly status: number;
  readonly type: ErrorType;
  /** The public `error.code`. */
  readonly code: string;

  constructor(
    readonly registryCode: ErrorCode,
    message: string,
    readonly options: GatewayErrorOptions = {},
  ) {
    super(message);
    this.status = ERROR_CODES[registryCode].status;
    this.type = errorType(registryCode);
    this.code = options.upstreamCode ?? registryCode;
  }
}

export interface ErrorEnvelope {
  error: {
    message: string;
    type: ErrorType;
    code: string;
    param: string | null;
    request_id: string;
    details?: Record<string, unknown>;
  };
}

export function toEnvelope(err: GatewayError, requestId: string): ErrorEnvelope {
  const body: ErrorEnvelope['error'] = {
    message: err.message,
    type: err.type,
    code: err.code,
    param: err.options.param ?? null,
    request_id: requestId,
  };
  if (err.options.details) body.details = err.options.details;
  return { error: body };
}
