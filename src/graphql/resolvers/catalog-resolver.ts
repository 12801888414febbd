import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { catalogEntry, modelRecord, policyRecord, type CatalogEntry as CatalogEntryView } from '../../catalog/catalog-entry';
import { mayUseModel } from '../../keys/principal';
import type { GraphqlContext } from '../context';
import { CatalogEntry } from '../types/catalog-entry';
import { Model } from '../types/model';

/** The model listing and catalog of GET /v1/models and GET /api/models/catalog, scoped to the calling key. */
@Resolver()
export class CatalogResolver {
  @Query(() => [Model], { description: 'The models and route policies the calling key may use.' })
  models(@Ctx() ctx: GraphqlContext): Model[] {
    const visible = ctx.services.catalog.visibleTo(ctx.principal);
    const { loadedAt } = ctx.services.catalog.contents;
    return [
      ...visible.models.map((model) => modelRecord(model, loadedAt)),
      ...visible.policies.map((policy) => policyRecord(policy, loadedAt)),
    ];
  }

  @Query(() => [CatalogEntry], { description: 'The catalog entries of the models the calling key may use.' })
  catalog(
    @Arg('endpointType', () => String, { nullable: true, description: 'Only models serving this endpoint type: chat, embeddings, ...' })
    endpointType: string | null,
    @Ctx() ctx: GraphqlContext,
  ): CatalogEntryView[] {
    const { models } = ctx.services.catalog.visibleTo(ctx.principal);
    const serving = endpointType ? models.filter((model) => (model.config.endpoint_types as string[]).includes(endpointType)) : models;
    const { pricing } = ctx.services.catalog.contents;
    return serving.map((model) => catalogEntry(model, pricing));
  }
}

/**
 * One entry of `models`, from the in-memory catalog: the model or route
 * policy of that name, or null when the catalog no longer serves it or the
 * calling key may not use it.
 */
export function visibleModel(ctx: GraphqlContext, name: string): Model | null {
  const { catalog } = ctx.services;
  if (!mayUseModel(ctx.principal, name)) return null;
  const model = catalog.model(name);
  if (model) return modelRecord(model, catalog.contents.loadedAt);
  const policy = catalog.policy(name);
  return policy ? policyRecord(policy, catalog.contents.loadedAt) : null;
}

/** One entry of `catalog`: the model of that id, or null when the catalog no longer serves it or the calling key may not use it. */
export function visibleCatalogEntry(ctx: GraphqlContext, id: string): CatalogEntryView | null {
  const model = ctx.services.catalog.model(id);
  return model && mayUseModel(ctx.principal, id) ? catalogEntry(model, ctx.services.catalog.contents.pricing) : null;
}
