import { buildSubgraphSchema } from '@apollo/subgraph';
import {
  concatAST,
  graphql,
  isUnionType,
  lexicographicSortSchema,
  parse,
  printSchema,
  visit,
  type DocumentNode,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { createResolversMap } from 'type-graphql';
import { badUserInput } from './errors';
import { entityReferenceResolvers } from './resolvers/entity-references';
import { buildGatewaySchema } from './schema';
import { MAX_PAGE_SIZE } from './types/page-args';

/** The Federation 2 version and directives the subgraph's SDL links: v2.7, which routers and gateways of Federation 2.7 and later compose. */
const FEDERATION_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])';

/** The most references one `_entities` call resolves: a page, as the cost limit counts it (query-limits.ts). */
export const MAX_ENTITY_REFERENCES = MAX_PAGE_SIZE;

type Resolvers = NonNullable<Extract<Parameters<typeof buildSubgraphSchema>[0], { resolvers?: unknown }>['resolvers']>;

/**
 * The gateway's schema as an Apollo Federation 2 subgraph: what /graphql
 * serves, over HTTP and graphql-ws alike. The type-graphql schema is
 * printed with the directives its `@Directive`s put on types and fields
 * (graphql-js's printer leaves those out), after the federation `@link`,
 * and rebuilt by `buildSubgraphSchema` with type-graphql's own resolvers
 * (subscriptions' `subscribe` included) and a reference resolver per entity.
 * `_service { sdl }` then answers the subgraph SDL (`subgraph.graphql`), and
 * `_entities` resolves references for the calling key only.
 */
export async function buildGatewaySubgraphSchema(): Promise<GraphQLSchema> {
  const schema = await buildGatewaySchema();
  const subgraph = buildSubgraphSchema({ typeDefs: typeDefsWithDirectives(schema), resolvers: withReferences(createResolversMap(schema) as Resolvers) });
  guardEntities(subgraph);
  return subgraph;
}

/** The subgraph SDL that `_service { sdl }` answers. */
export async function subgraphSdl(): Promise<string> {
  const result = await graphql({ schema: await buildGatewaySubgraphSchema(), source: '{ _service { sdl } }' });
  if (result.errors?.length) throw result.errors[0];
  return (result.data as { _service: { sdl: string } })._service.sdl;
}

/**
 * The schema's SDL, types and fields sorted (so that the SDL changes only
 * when the schema does), with each object type's and field's directives
 * taken from its AST node, where type-graphql keeps them.
 */
function typeDefsWithDirectives(schema: GraphQLSchema): DocumentNode {
  const sorted = lexicographicSortSchema(schema);
  const document = visit(parse(printSchema(sorted)), {
    ObjectTypeDefinition(node) {
      const type = sorted.getType(node.name.value);
      if (!type || !('getFields' in type)) return undefined;
      const fields = type.getFields();
      return {
        ...node,
        directives: [...(node.directives ?? []), ...(type.astNode?.directives ?? [])],
        fields: node.fields?.map((field) => ({ ...field, directives: [...(field.directives ?? []), ...(fields[field.name.value]?.astNode?.directives ?? [])] })),
      };
    },
  });
  return concatAST([parse(FEDERATION_LINK), document]);
}

/** type-graphql's resolvers with each entity's reference resolver added to its type's. */
function withReferences(resolvers: Resolvers): Resolvers {
  const merged: Resolvers = { ...resolvers };
  for (const [type, reference] of Object.entries(entityReferenceResolvers())) merged[type] = { ...merged[type], ...reference } as Resolvers[string];
  return merged;
}

/**
 * Holds `_entities` to what it is for: at most a page of references (the
 * cost limit counts references that come in a variable as a page), each
 * naming one of the subgraph's entities (a client's mistake is
 * BAD_USER_INPUT, not an internal error), and every entity with a
 * reference resolver of its own: without one, `_entities` would answer a
 * reference with the caller's own representation.
 */
function guardEntities(schema: GraphQLSchema): void {
  const union = schema.getType('_Entity');
  const entities = new Set(isUnionType(union) ? union.getTypes().map((type) => type.name) : []);
  const references = entityReferenceResolvers();
  const unresolved = [...entities].filter((name) => !references[name]);
  if (unresolved.length) throw new Error(`entities without a reference resolver (resolvers/entity-references.ts): ${unresolved.join(', ')}`);
  const field = schema.getQueryType()!.getFields()._entities;
  if (!field?.resolve) return;
  const resolve: GraphQLFieldResolver<unknown, unknown, { representations: unknown[] }> = field.resolve;
  field.resolve = (source, args: { representations: unknown[] }, context, info) => {
    const { representations } = args;
    if (representations.length > MAX_ENTITY_REFERENCES) throw badUserInput('representations', `must hold at most ${MAX_ENTITY_REFERENCES} references; split them over several requests.`);
    for (const representation of representations) {
      const typename = (representation as { __typename?: unknown } | null)?.__typename;
      if (typeof typename !== 'string' || !entities.has(typename)) {
        throw badUserInput('representations', `holds a reference to ${JSON.stringify(typename ?? null)}, which is not an entity of this subgraph (${[...entities].join(', ')}).`);
      }
    }
    return resolve(source, args, context, info);
  };
}
