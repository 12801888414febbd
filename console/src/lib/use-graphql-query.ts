import { useCallback, useEffect, useState } from 'preact/hooks';
import { toProblem, type GatewayProblem } from './gateway-problem';
import { graphqlRequest, type GraphqlEndpoint } from './graphql-request';

export interface QueryState<T> {
  data: T | undefined;
  problem: GatewayProblem | undefined;
  loading: boolean;
  /** Runs the query again (after a mutation, say). */
  reload(): void;
}

/**
 * Runs a GraphQL query when the page shows it and again whenever the query
 * or its variables change; an answer that arrives after a newer request
 * was made is dropped. `endpoint` null (no secret yet) runs nothing.
 * `revision` is a number the page raises after its writes: every query of
 * the page runs again, with the data it shows kept until the answer comes.
 */
export function useGraphqlQuery<T>(endpoint: GraphqlEndpoint | null, query: string, variables: Record<string, unknown> = {}, revision = 0): QueryState<T> {
  const [state, setState] = useState<{ data?: T; problem?: GatewayProblem; loading: boolean }>({ loading: endpoint !== null });
  const [generation, setGeneration] = useState(0);
  const variablesKey = JSON.stringify(variables);
  const path = endpoint?.path;
  const secret = endpoint?.secret;

  useEffect(() => {
    if (!path || !secret) return;
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    graphqlRequest<T>({ path, secret }, query, JSON.parse(variablesKey) as Record<string, unknown>).then(
      (data) => current && setState({ data, loading: false }),
      (err: unknown) => current && setState((s) => ({ data: s.data, problem: toProblem(err), loading: false })),
    );
    return () => {
      current = false;
    };
  }, [path, secret, query, variablesKey, generation, revision]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data: state.data, problem: state.problem, loading: state.loading, reload };
}
