/**
 * An error as the console shows it: the gateway's words (`message`), its
 * error code and the request id to quote when asking about it. The gateway
 * answers REST errors with an envelope (`{"error": {"message", "code",
 * "request_id"}}`) and GraphQL errors with `extensions.code` and
 * `extensions.request_id`; both end up here.
 */
export class GatewayProblem extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly requestId?: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GatewayProblem';
  }

  /** A REST answer that is not 2xx: its error envelope, or the bare status when the body is not one. */
  static fromEnvelope(status: number, body: unknown): GatewayProblem {
    const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
    if (!error) return new GatewayProblem(`The gateway answered HTTP ${status}.`, undefined, undefined, status);
    return new GatewayProblem(text(error.message) ?? `HTTP ${status}`, text(error.code), text(error.request_id), status);
  }

  /** The first error of a GraphQL answer's `errors`. */
  static fromGraphqlErrors(errors: unknown[], status?: number): GatewayProblem {
    const first = isRecord(errors[0]) ? errors[0] : {};
    const extensions = isRecord(first.extensions) ? first.extensions : {};
    return new GatewayProblem(text(first.message) ?? 'The GraphQL operation failed.', text(extensions.code), text(extensions.request_id), status);
  }
}

/** Anything thrown, as a problem to show: a network failure has neither code nor request id. */
export function toProblem(err: unknown): GatewayProblem {
  if (err instanceof GatewayProblem) return err;
  if (err instanceof Error) return new GatewayProblem(err.message);
  return new GatewayProblem(String(err));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
