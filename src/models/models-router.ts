import { Router } from 'express';
import type { PriceTable } from '../billing/price-table';
import type { Catalog } from '../catalog/catalog';
import { catalogEntry, modelRecord, policyRecord } from '../catalog/catalog-entry';
import { Errors } from '../errors/errors';
import { methodNotAllowed } from '../http/method-not-allowed';
import { locals } from '../http/request-locals';

export interface ModelListing {
  catalog: Catalog;
  prices: PriceTable;
  pricingVersion: number;
  /** Unix seconds the catalog was loaded: the `created` of every model record. */
  loadedAt: number;
}

/** `GET /v1/models`, `GET /v1/models/{id}` and `GET /api/models/catalog`, each scoped to the key. */
export function modelsRouter(listing: ModelListing): Router {
  const router = Router();
  const { catalog, prices, pricingVersion, loadedAt } = listing;

  router
    .route('/v1/models')
    .get((_req, res) => {
      const visible = catalog.visibleTo(locals(res).principal!);
      res.json({
        object: 'list',
        data: [...visible.models.map((m) => modelRecord(m, loadedAt)), ...visible.policies.map((p) => policyRecord(p, loadedAt))],
      });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/v1/models/:id')
    .get((req, res, next) => {
      const id = String(req.params.id);
      const visible = catalog.visibleTo(locals(res).principal!);
      const model = visible.models.find((m) => m.id === id);
      const policy = visible.policies.find((p) => p.name === id);
      if (model) return res.json(modelRecord(model, loadedAt));
      if (policy) return res.json(policyRecord(policy, loadedAt));
      next(Errors.modelNotFound(id));
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/models/catalog')
    .get((req, res) => {
      const visible = catalog.visibleTo(locals(res).principal!);
      const type = typeof req.query.endpoint_type === 'string' ? req.query.endpoint_type : undefined;
      const models = type ? visible.models.filter((m) => (m.config.endpoint_types as string[]).includes(type)) : visible.models;
      res.json({
        object: 'list',
        pricing_version: pricingVersion,
        data: models.map((m) => catalogEntry(m, prices, pricingVersion)),
        routes: visible.policies.map((p) => ({ name: p.name, models: p.models })),
      });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
