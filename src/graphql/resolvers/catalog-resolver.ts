import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { CatalogEntry as CatalogEntryView } from '../../catalog/catalog-entry';
import { findCatalogEntry, findModel, listCatalog, listModels } from '../../models/model-listing';
import type { GraphqlContext } from '../context';
import { CatalogEntry } from '../types/catalog-entry';
import { Model } from '../types/model';

/** The model listing and catalog of GET /v1/models and GET /api/models/catalog, scoped to the calling key. */
@Resolver()
export class CatalogResolver {
  @Query(() => [Model], { description: 'The models and route policies the calling key may use.' })
  models(@Ctx() ctx: GraphqlContext): Model[] {
    return listModels(ctx.services.catalog, ctx.principal);
  }

  @Query(() => [CatalogEntry], { description: 'The catalog entries of the models the calling key may use.' })
  catalog(
    @Arg('endpointType', () => String, { nullable: true, description: 'Only models serving this endpoint type: chat, embeddings, ...' })
    endpointType: string | null,
    @Ctx() ctx: GraphqlContext,
  ): CatalogEntryView[] {
    return listCatalog(ctx.services.catalog, ctx.principal, endpointType ?? undefined).entries;
  }
}

/** One entry of `models`: the model or route policy of that name, or null when the catalog no longer serves it or the calling key may not use it. */
export function visibleModel(ctx: GraphqlContext, name: string): Model | null {
  return findModel(ctx.services.catalog, ctx.principal, name);
}

/** One entry of `catalog`: the model of that id, or null when the catalog no longer serves it or the calling key may not use it. */
export function visibleCatalogEntry(ctx: GraphqlContext, id: string): CatalogEntryView | null {
  return findCatalogEntry(ctx.services.catalog, ctx.principal, id);
}
