import { useCallback, useMemo, useState } from 'preact/hooks';
import { ADMIN_GRAPHQL_PATH, graphqlRequest, type GraphqlEndpoint } from './graphql-request';

/** What every part of the Admin page shares: the admin token, and the revision its writes raise. */
export interface AdminSession {
  endpoint: GraphqlEndpoint;
  /** Raised after each write: every admin query of the page runs again. */
  revision: number;
  /** Runs an admin operation; a refusal throws the gateway's error. */
  request<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** After a write succeeded. */
  changed(): void;
}

export function useAdminSession(token: string): AdminSession {
  const [revision, setRevision] = useState(0);
  const changed = useCallback(() => setRevision((n) => n + 1), []);
  return useMemo(() => {
    const endpoint = { path: ADMIN_GRAPHQL_PATH, secret: token };
    const request = <T,>(query: string, variables: Record<string, unknown> = {}) => graphqlRequest<T>(endpoint, query, variables);
    return { endpoint, revision, changed, request };
  }, [token, revision, changed]);
}
