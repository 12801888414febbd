import { Router } from 'express';
import type { Catalog } from '../catalog/catalog';
import { Errors } from '../errors/errors';
import { methodNotAllowed } from '../http/method-not-allowed';
import { locals } from '../http/request-locals';
import { findModel, listCatalog, listModels } from './model-listing';

/**
 * `GET /v1/models`, `GET /v1/models/{id}` and `GET /api/models/catalog`, each
 * scoped to the key, from the catalog revision in force (see model-listing.ts).
 */
export function modelsRouter(catalog: Catalog): Router {
  const router = Router();

  router
    .route('/v1/models')
    .get((_req, res) => {
      res.json({ object: 'list', data: listModels(catalog, locals(res).principal!) });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/v1/models/:id')
    .get((req, res, next) => {
      const id = String(req.params.id);
      const model = findModel(catalog, locals(res).principal!, id);
      if (!model) return next(Errors.modelNotFound(id));
      res.json(model);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/models/catalog')
    .get((req, res) => {
      const type = typeof req.query.endpoint_type === 'string' ? req.query.endpoint_type : undefined;
      const { pricing_version, catalog_revision, entries, routes } = listCatalog(catalog, locals(res).principal!, type);
      res.json({ object: 'list', pricing_version, catalog_revision, data: entries, routes });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
