import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { toGatewayError } from '../model-call/to-gateway-error';
import { tokenLimitRefusal } from './query-limits';

/**
 * How errors look to GraphQL clients. A gateway error keeps what the REST
 * envelope says: `extensions.code` is the gateway code (`invalid_parameter`,
 * `model_not_found`, ...), with `status` and `param`. GraphQL's own errors
 * (syntax, validation, bad arguments) stay as GraphQL words them, except
 * the gateway's own refusals among them (a document over a limit, see
 * query-limits.ts), which read as gateway errors. Anything else is a bug,
 * and says only "internal error". Every error carries the operation's
 * `request_id`.
 */

const INTERNAL_ERROR_MESSAGE = 'internal error';

/** A bug, not a refusal: neither a GraphQL error nor a gateway or upstream error. */
export function isInternalError(error: unknown): boolean {
  const cause = unwrapResolverError(error);
  return !(cause instanceof GraphQLError) && !toGatewayError(cause);
}

/** Apollo's `formatError`, and the graphql-ws results' formatter. */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const cause = unwrapResolverError(error);
  const { locations, path } = formatted;
  if (cause instanceof GraphQLError) {
    const refusal = gatewayRefusal(cause);
    return refusal ? { message: refusal.message, locations, path, extensions: gatewayExtensions(refusal) } : formatted;
  }
  const gatewayError = toGatewayError(cause);
  if (gatewayError) return { message: gatewayError.message, locations, path, extensions: gatewayExtensions(gatewayError) };
  return { message: INTERNAL_ERROR_MESSAGE, locations, path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/**
 * The gateway refusal a GraphQL error stands for: a validation rule's (which
 * Apollo wraps in its own validation error, keeping the refusal as the
 * original error), or the parser's token limit.
 */
function gatewayRefusal(error: GraphQLError): GatewayError | undefined {
  if (error.originalError instanceof GatewayError) return error.originalError;
  return tokenLimitRefusal(error);
}

/** A gateway refusal before an operation runs, as a GraphQL error with the operation's request id. */
export function refusalError(refusal: GatewayError, requestId: string): GraphQLError {
  return new GraphQLError(refusal.message, { extensions: { ...gatewayExtensions(refusal), request_id: requestId } });
}

/** Any GraphQL error as a client sees it, with the operation's request id, as a GraphQLError to hand to graphql-ws. */
export function clientError(error: GraphQLError, requestId: string): GraphQLError {
  const formatted = withRequestId(formatGraphqlError(error.toJSON(), error), requestId);
  return new GraphQLError(formatted.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: formatted.extensions });
}

export function withRequestId(formatted: GraphQLFormattedError, requestId: string): GraphQLFormattedError {
  return { ...formatted, extensions: { ...formatted.extensions, request_id: formatted.extensions?.request_id ?? requestId } };
}

/**
 * A subscription's stream failing mid-way, formatted here because graphql-ws
 * relays such an error without its operation's context.
 */
export function streamFailure(error: unknown, requestId: string): GraphQLError {
  const raw = error instanceof GraphQLError ? error.toJSON() : { message: error instanceof Error ? error.message : String(error) };
  const formatted = withRequestId(formatGraphqlError(raw, error), requestId);
  return new GraphQLError(formatted.message, { extensions: formatted.extensions });
}

/** No key or a key that is not valid: UNAUTHENTICATED, with the REST error's explanation. */
export function unauthenticated(secret: string | undefined, requestId: string): GraphQLError {
  return unauthenticatedBy(secret ? Errors.invalidApiKey() : Errors.missingApiKey(), requestId);
}

/** REST's refusal of a key (`missing_api_key`, `invalid_api_key`) as GraphQL's UNAUTHENTICATED. */
export function unauthenticatedBy(reason: GatewayError, requestId: string): GraphQLError {
  return new GraphQLError(reason.message, { extensions: { code: 'UNAUTHENTICATED', status: reason.status, request_id: requestId } });
}

/** Whether a refusal is about the API key, which GraphQL calls UNAUTHENTICATED. */
export function isKeyRefusal(reason: GatewayError): boolean {
  return reason.registryCode === 'missing_api_key' || reason.registryCode === 'invalid_api_key';
}

/** An argument the resolver refuses; `param` names it, as the REST envelope does. */
export function badUserInput(param: string, message: string): GraphQLError {
  return new GraphQLError(`"${param}" ${message}`, { extensions: { code: 'BAD_USER_INPUT', param } });
}

function gatewayExtensions(err: GatewayError): Record<string, unknown> {
  return {
    code: err.code,
    status: err.status,
    param: err.options.param ?? null,
    ...(err.options.details ? { details: err.options.details } : {}),
  };
}
