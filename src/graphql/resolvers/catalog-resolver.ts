import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { catalogEntry, modelRecord, policyRecord, type CatalogEntry as CatalogEntryView } from '../../catalog/catalog-entry';
import type { GraphqlContext } from '../context';
import { CatalogEntry } from '../types/catalog-entry';
import { Model } from '../types/model';

/** The model listing and catalog of GET /v1/models and GET /api/models/catalog, scoped to the calling key. */
@Resolver()
export class CatalogResolver {
  @Query(() => [Model], { description: 'The models and route policies the calling key may use.' })
  models(@Ctx() ctx: GraphqlContext): Model[] {
    const visible = ctx.services.catalog.visibleTo(ctx.principal);
    return [
      ...visible.models.map((model) => modelRecord(model, ctx.catalogLoadedAt)),
      ...visible.policies.map((policy) => policyRecord(policy, ctx.catalogLoadedAt)),
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
    return serving.map((model) => catalogEntry(model, ctx.services.prices, ctx.services.pricingVersion));
  }
}
