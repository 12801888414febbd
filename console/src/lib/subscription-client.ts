import { createClient, type Client } from 'graphql-ws/client';
import { GatewayProblem } from './gateway-problem';
import { GRAPHQL_PATH } from './graphql-request';

export type LinkState = 'connecting' | 'live' | 'reconnecting' | 'closed';

/**
 * A graphql-ws client for /graphql on this page's host. Browsers cannot set
 * headers on a WebSocket, so the key goes in the connection params as
 * `authorization`, which the gateway reads like the header. The client
 * reconnects by itself after a dropped connection; `onState` follows it.
 */
export function subscriptionClient(key: string, onState: (state: LinkState) => void): Client {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  let connectedOnce = false;
  return createClient({
    url: `${scheme}://${window.location.host}${GRAPHQL_PATH}`,
    connectionParams: { authorization: `Bearer ${key}` },
    lazy: true,
    retryAttempts: 20,
    on: {
      connecting: () => onState(connectedOnce ? 'reconnecting' : 'connecting'),
      connected: () => {
        connectedOnce = true;
        onState('live');
      },
      closed: () => onState('closed'),
    },
  });
}

/** A failed subscription as a problem to show: a GraphQL error list, or the close event that ended the socket. */
export function subscriptionProblem(err: unknown): GatewayProblem {
  if (Array.isArray(err)) return GatewayProblem.fromGraphqlErrors(err);
  if (err && typeof err === 'object' && 'code' in err && typeof (err as CloseEvent).code === 'number') {
    const close = err as CloseEvent;
    if (close.code === 4401) return new GatewayProblem('The gateway refused the API key for live updates.', 'UNAUTHENTICATED');
    return new GatewayProblem(`The live connection closed (${close.code}${close.reason ? `: ${close.reason}` : ''}).`);
  }
  return new GatewayProblem(err instanceof Error ? err.message : 'The live connection failed.');
}
