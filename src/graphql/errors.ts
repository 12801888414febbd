import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { Errors } from '../errors/errors';
import { type GatewayError } from '../errors/gateway-error';
import { toGatewayError } from '../model-call/to-gateway-error';

/**
 * How errors look to GraphQL clients. A gateway error keeps what the REST
 * envelope says: `extensions.code` is the gateway code (`invalid_parameter`,
 * `model_not_found`, ...), with `status` and `param`. GraphQL's own errors
 * (syntax, validation, bad arguments) stay as GraphQL words them. Anything
 * else is a bug, and says only "internal error". Every error carries the
 * operation's `request_id`.
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
  if (cause instanceof GraphQLError) return formatted;
  const { locations, path } = formatted;
  const gatewayError = toGatewayError(cause);
  if (gatewayError) return { message: gatewayError.message, locations, path, extensions: gatewayExtensions(gatewayError) };
  return { message: INTERNAL_ERROR_MESSAGE, locations, path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
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
  const reason = secret ? Errors.invalidApiKey() : Errors.missingApiKey();
  return new GraphQLError(reason.message, { extensions: { code: 'UNAUTHENTICATED', status: 401, request_id: requestId } });
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
