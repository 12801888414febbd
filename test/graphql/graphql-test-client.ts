import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type GraphQLFormattedError } from 'graphql';
import { createClient, type Client, type ClientOptions, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestGateway } from '../support/test-gateway';

/** Talking to the gateway's /graphql as clients do: typed documents over fetch, and graphql-ws. */

export interface HttpResult<TData> {
  status: number;
  /** The X-Svc-Request-Id header. */
  requestId: string | null;
  data?: TData | null;
  errors?: GraphQLFormattedError[];
}

/** Runs a typed operation over HTTP, as the holder of `key` (none when undefined). */
export async function graphqlHttp<TData, TVariables>(
  t: TestGateway,
  key: string | undefined,
  document: TypedDocumentNode<TData, TVariables>,
  variables?: TVariables,
  method: 'POST' | 'GET' = 'POST',
): Promise<HttpResult<TData>> {
  const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const query = print(document);
  const res =
    method === 'GET'
      ? await fetch(`${t.url}/graphql?${new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) })}`, { headers: auth })
      : await fetch(`${t.url}/graphql`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        });
  const body = (await res.json()) as { data?: TData | null; errors?: GraphQLFormattedError[] };
  return { status: res.status, requestId: res.headers.get('x-svc-request-id'), ...body };
}

/** A graphql-ws client for the gateway; connects on its first operation and never retries. */
export function wsClient(t: TestGateway, connectionParams: Record<string, unknown>, options: Partial<ClientOptions> = {}): Client {
  return createClient({
    url: `${t.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: true,
    ...options,
  });
}

export interface SubscriptionOutcome<TData> {
  results: Array<FormattedExecutionResult<TData, unknown>>;
  /** What ended the subscription early: GraphQL errors sent as an `error` message, or the socket's close event. */
  failure?: unknown;
}

/** Runs a typed operation over graphql-ws to its end. */
export async function runOverWs<TData, TVariables>(
  client: Client,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<SubscriptionOutcome<TData>> {
  const results: Array<FormattedExecutionResult<TData, unknown>> = [];
  try {
    for await (const result of client.iterate<TData>({ query: print(document), variables: variables as Record<string, unknown> })) results.push(result);
    return { results };
  } catch (failure) {
    return { results, failure };
  }
}

