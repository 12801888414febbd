import { Router, type RequestHandler } from 'express';
import { requireAdminToken } from '../http/auth';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { KeyAdmin } from './key-admin';

/** The operator's key management: `POST /api/admin/keys` (the secret is returned once), list, `PATCH` its models and domain allowlist, revoke. */
export function adminKeysRouter(keys: KeyAdmin, adminToken: string | undefined, jsonBody: RequestHandler): Router {
  const router = Router();
  const admin = requireAdminToken(adminToken);

  router
    .route('/api/admin/keys')
    .post(admin, jsonBody, async (req, res) => {
      res.status(201).json(await keys.create(req.body));
    })
    .get(admin, async (_req, res) => {
      res.json({ object: 'list', data: await keys.list() });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/admin/keys/:id')
    .delete(admin, async (req, res) => {
      res.json(await keys.revoke(String(req.params.id)));
    })
    .patch(admin, jsonBody, async (req, res) => {
      res.json(await keys.update(String(req.params.id), req.body));
    })
    .all(methodNotAllowed(['DELETE', 'PATCH']));

  return router;
}
