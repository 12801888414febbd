/**
 * The Apollo Federation key of every entity the gateway's subgraph serves
 * (`@Directive(ENTITY_KEY)` on its object type): its id. Another subgraph
 * may return a reference `{ __typename, id }`, and the gateway resolves it in
 * `_entities` for the calling key only (resolvers/entity-references.ts).
 */
export const ENTITY_KEY = '@key(fields: "id")';
