import { Router } from 'express';
import type { Catalog } from '../catalog/catalog';
import { catalogEntry, modelRecord, policyRecord } from '../catalog/catalog-entry';
import { Errors } from '../errors/errors';
import { methodNotAllowed } from '../http/method-not-allowed';
import { locals } from '../http/request-locals';

/**
 * `GET /v1/models`, `GET /v1/models/{id}` and `GET /api/models/catalog`, each
 * scoped to the key, from the catalog revision in force. A model's `created`
 * is when that revision was loaded.
 */
export function modelsRouter(catalog: Catalog): Router {
  const router = Router();

  router
    .route('/v1/models')
    .get((_req, res) => {
      const visible = catalog.visibleTo(locals(res).principal!);
      const { loadedAt } = catalog.contents;
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
      const { loadedAt } = catalog.contents;
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
      const { pricing, revision } = catalog.contents;
      res.json({
        object: 'list',
        pricing_version: pricing.version,
        catalog_revision: revision,
        data: models.map((m) => catalogEntry(m, pricing)),
        routes: visible.policies.map((p) => ({ name: p.name, models: p.models })),
      });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
