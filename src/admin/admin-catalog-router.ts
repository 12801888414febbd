import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { CatalogSync } from '../catalog/catalog-sync';
import type { CatalogRevision } from '../catalog/catalog-store';
import { GatewayError } from '../errors/gateway-error';
import { Errors } from '../errors/errors';
import { parseRequest } from '../errors/parse-request';
import { requireAdminToken } from '../http/auth';
import { methodNotAllowed } from '../http/method-not-allowed';
import { editCatalog, type CatalogDocument } from './catalog-edit';

const enabledSchema = z.strictObject({ enabled: z.boolean() });

/**
 * The operator's runtime catalog: `GET /api/admin/catalog` (the revision in
 * force and its document), `PUT` (a whole new document), and switching a
 * model or a provider channel on or off. Every edit is validated in full,
 * stored as the next revision and served by every instance within seconds;
 * a bad one is a 400 `invalid_catalog` naming the field, and nothing changes.
 */
export function adminCatalogRouter(sync: CatalogSync, adminToken: string | undefined, jsonBody: RequestHandler): Router {
  const router = Router();
  const admin = requireAdminToken(adminToken);

  const edit = async (change: (document: CatalogDocument) => CatalogDocument) => {
    await editCatalog(sync, change);
    return view(sync, await sync.currentDocument());
  };

  router
    .route('/api/admin/catalog')
    .get(admin, async (_req, res) => {
      res.json(view(sync, await sync.currentDocument()));
    })
    .put(admin, jsonBody, async (req, res) => {
      const document = req.body as unknown;
      if (!document || typeof document !== 'object' || Array.isArray(document)) throw Errors.validation('', 'The body must be the catalog document: {providers, models, routes}.');
      res.json(await edit(() => document as CatalogDocument));
    })
    .all(methodNotAllowed(['GET', 'PUT']));

  /** PATCH {enabled} on one entry of the newest document, found by `locate` (which throws the entry's 404). */
  const enabledSwitch = (path: string, locate: (document: CatalogDocument, name: string) => Record<string, unknown>) =>
    router
      .route(path)
      .patch(admin, jsonBody, async (req, res) => {
        const { enabled } = parseRequest(enabledSchema, req.body);
        const name = String(req.params.name);
        res.json(await edit((document) => {
          locate(document, name).enabled = enabled;
          return document;
        }));
      })
      .all(methodNotAllowed(['PATCH']));

  enabledSwitch('/api/admin/catalog/models/:name', (document, id) => {
    const model = document.models?.find((m) => m.id === id);
    if (!model) throw Errors.modelNotFound(id);
    return model;
  });
  enabledSwitch('/api/admin/catalog/providers/:name', (document, name) => {
    const provider = document.providers && Object.hasOwn(document.providers, name) ? document.providers[name] : undefined;
    if (!provider) throw new GatewayError('provider_not_found', `No provider channel "${name}" in the catalog.`);
    return provider;
  });

  return router;
}

function view(sync: CatalogSync, stored: CatalogRevision | undefined) {
  const { contents } = sync.catalog;
  return {
    object: 'catalog',
    revision: contents.revision,
    pricing_version: contents.pricing.version,
    source: stored?.version === contents.revision ? stored.source : null,
    models: contents.config.models.map((m) => ({ id: m.id, enabled: m.enabled })),
    providers: Object.entries(contents.config.providers).map(([name, p]) => ({ name, type: p.type, enabled: p.enabled })),
    document: stored?.version === contents.revision ? stored.document : null,
  };
}
