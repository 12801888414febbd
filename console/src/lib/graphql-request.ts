import { GatewayProblem } from './gateway-problem';

/** Where a GraphQL operation goes and with which secret: an API key for /graphql, the admin token for /api/admin/graphql. */
export interface GraphqlEndpoint {
  path: string;
  secret: string;
}

export const GRAPHQL_PATH = '/graphql';
export const ADMIN_GRAPHQL_PATH = '/api/admin/graphql';

/**
 * One GraphQL operation over HTTP POST, authenticated with `Authorization:
 * Bearer`. An answer with `errors` (or without data) throws its first error
 * as a GatewayProblem, so a page shows the gateway's code and request id.
 */
export async function graphqlRequest<T>(endpoint: GraphqlEndpoint, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(endpoint.path, {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.secret}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  let body: { data?: T | null; errors?: unknown[] };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new GatewayProblem(`The gateway answered HTTP ${res.status} without a GraphQL result.`, undefined, res.headers.get('x-svc-request-id') ?? undefined, res.status);
  }
  if (body.errors?.length) throw GatewayProblem.fromGraphqlErrors(body.errors, res.status);
  if (!body.data) throw new GatewayProblem(`The gateway answered HTTP ${res.status} with no data.`, undefined, undefined, res.status);
  return body.data;
}
