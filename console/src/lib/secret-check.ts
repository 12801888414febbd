import { ADMIN_GRAPHQL_PATH, GRAPHQL_PATH, graphqlRequest } from './graphql-request';

/**
 * A pasted secret is tried before the console keeps it, with the cheapest
 * authenticated call of its API (`__typename`: nothing runs but the
 * gateway's check of the key or token). A refusal throws the gateway's own
 * error, which the sign-in form shows.
 */
export async function checkApiKey(key: string): Promise<void> {
  await graphqlRequest({ path: GRAPHQL_PATH, secret: key }, 'query ConsoleKeyCheck { __typename }');
}

export async function checkAdminToken(token: string): Promise<void> {
  await graphqlRequest({ path: ADMIN_GRAPHQL_PATH, secret: token }, 'query ConsoleAdminTokenCheck { __typename }');
}
