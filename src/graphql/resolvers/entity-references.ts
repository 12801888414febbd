import type { GraphqlContext } from '../context';
import { budgetNode } from '../types/budget';
import { visibleCatalogEntry, visibleModel } from './catalog-resolver';
import { findFile } from './file-resolver';
import { credentialNode } from './spend-control-resolver';
import { findTask } from './task-resolver';

/** A reference another subgraph holds to one of the gateway's entities: its type and key. */
interface EntityReference {
  __typename: string;
  id?: unknown;
}

type ResolveReference = (reference: EntityReference, ctx: GraphqlContext) => unknown;

/**
 * How `_entities` resolves a reference to each entity of the gateway's
 * subgraph (the object types with `@Directive(ENTITY_KEY)`): with the same
 * service calls and the same scoping as the query that reads one by id, so
 * a reference to another key's object (or to nothing) resolves to null,
 * exactly as `usageRecord(id)`, `file(id)` or `task(id)` answer null. The
 * usage records of one `_entities` call are read in one statement (the
 * operation's loader), and the budgets and credentials once.
 */
const REFERENCES: Record<string, ResolveReference> = {
  UsageRecord: (ref, ctx) => byId(ref, (id) => ctx.loaders.usageRecords.load(id)),
  VideoTask: (ref, ctx) => byId(ref, (id) => findTask(ctx, id)),
  File: (ref, ctx) => byId(ref, (id) => findFile(ctx, id)),
  Model: (ref, ctx) => byId(ref, (id) => visibleModel(ctx, id)),
  CatalogEntry: (ref, ctx) => byId(ref, (id) => visibleCatalogEntry(ctx, id)),
  Budget: (ref, ctx) => byId(ref, async (id) => {
    const budget = (await ctx.loaders.budgets()).find((b) => b.id === id);
    return budget ? budgetNode(budget) : null;
  }),
  Credential: (ref, ctx) => byId(ref, async (id) => {
    const credential = (await ctx.loaders.credentials()).find((c) => c.id === id);
    return credential ? credentialNode(credential) : null;
  }),
};

/** The `__resolveReference` resolvers to hand to `buildSubgraphSchema`, by type name. */
export function entityReferenceResolvers(): Record<string, { __resolveReference: ResolveReference }> {
  return Object.fromEntries(Object.entries(REFERENCES).map(([type, resolve]) => [type, { __resolveReference: resolve }]));
}

/** The entity of a reference's id; null for a reference without a string id. */
async function byId<T>(reference: EntityReference, find: (id: string) => T | Promise<T>): Promise<T | null> {
  return typeof reference.id === 'string' ? find(reference.id) : null;
}
