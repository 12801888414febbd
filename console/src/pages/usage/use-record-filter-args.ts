import { GRAPHQL_PATH } from '../../lib/graphql-request';
import { useGraphqlQuery } from '../../lib/use-graphql-query';

/**
 * The newer `usageRecords` filters this gateway takes, each with the
 * GraphQL type the server declares for it (`String`, `UsageRecordStatus`);
 * undefined while unknown.
 */
export interface RecordFilterArgs {
  endpoint?: string;
  status?: string;
}

const QUERY_TYPE = `query ConsoleUsageRecordArgs {
  __type(name: "Query") { fields { name args { name type { kind name ofType { kind name } } } } }
}`;

interface TypeRef {
  kind: string;
  name: string | null;
  ofType?: TypeRef | null;
}

/**
 * Asks the schema whether `usageRecords` takes `endpoint` and `status`, and
 * of which type: those filters are new on the server, so an older gateway
 * gets them greyed out rather than an error, and the console declares its
 * variables with the server's own types.
 */
export function useRecordFilterArgs(apiKey: string): RecordFilterArgs | undefined {
  const { data } = useGraphqlQuery<{ __type: { fields: Array<{ name: string; args: Array<{ name: string; type: TypeRef }> }> } | null }>(
    { path: GRAPHQL_PATH, secret: apiKey },
    QUERY_TYPE,
  );
  if (!data) return undefined;
  const args = data.__type?.fields.find((f) => f.name === 'usageRecords')?.args ?? [];
  const typeOf = (name: string): string | undefined => {
    const type = args.find((a) => a.name === name)?.type;
    if (type?.kind === 'NON_NULL') return type.ofType?.name ? `${type.ofType.name}!` : undefined;
    return type?.name ?? undefined;
  };
  return { endpoint: typeOf('endpoint'), status: typeOf('status') };
}
