import type { Catalog } from '../catalog/catalog';
import { catalogEntry, modelRecord, policyRecord, type CatalogEntry } from '../catalog/catalog-entry';
import { mayUseModel, type Principal } from '../keys/principal';

/** A `GET /v1/models` record: a model, or a route policy (owned by "gateway-route"). */
export type ModelRecord = ReturnType<typeof modelRecord>;

/** What `GET /api/models/catalog` lists: the entries of the models, the route policies, and the revision they come from. */
export interface CatalogListing {
  pricing_version: number;
  catalog_revision: number;
  entries: CatalogEntry[];
  routes: Array<{ name: string; models: string[] }>;
}

/**
 * What a key may see of the catalog revision in force, for every door:
 * the models first, then the route policies, each in catalog order. A
 * model's `created` is when that revision was loaded.
 */
export function listModels(catalog: Catalog, principal: Principal): ModelRecord[] {
  const visible = catalog.visibleTo(principal);
  const { loadedAt } = catalog.contents;
  return [...visible.models.map((model) => modelRecord(model, loadedAt)), ...visible.policies.map((policy) => policyRecord(policy, loadedAt))];
}

/** The model or route policy of that name (a model first); null when the catalog does not serve it or the key may not use it. */
export function findModel(catalog: Catalog, principal: Principal, name: string): ModelRecord | null {
  if (!mayUseModel(principal, name)) return null;
  const { loadedAt } = catalog.contents;
  const model = catalog.model(name);
  if (model) return modelRecord(model, loadedAt);
  const policy = catalog.policy(name);
  return policy ? policyRecord(policy, loadedAt) : null;
}

/** The catalog entries of the models the key may use (only those serving `endpointType`, when given), and its route policies. */
export function listCatalog(catalog: Catalog, principal: Principal, endpointType?: string): CatalogListing {
  const visible = catalog.visibleTo(principal);
  const serving = endpointType ? visible.models.filter((model) => (model.config.endpoint_types as string[]).includes(endpointType)) : visible.models;
  const { pricing, revision } = catalog.contents;
  return {
    pricing_version: pricing.version,
    catalog_revision: revision,
    entries: serving.map((model) => catalogEntry(model, pricing)),
    routes: visible.policies.map((policy) => ({ name: policy.name, models: policy.models })),
  };
}

/** The catalog entry of that model; null when the catalog does not serve it or the key may not use it. */
export function findCatalogEntry(catalog: Catalog, principal: Principal, id: string): CatalogEntry | null {
  const model = catalog.model(id);
  return model && mayUseModel(principal, id) ? catalogEntry(model, catalog.contents.pricing) : null;
}
