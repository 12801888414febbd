import { Router, type RequestHandler } from 'express';
import { requireAdminToken } from '../http/auth';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { AccountAdmin } from './account-admin';

/**
 * The operator's accounts: `POST /api/admin/accounts` and list,
 * `GET /api/admin/accounts/{id}` (its projects, members and active key
 * count), and `POST …/{id}/projects` and `…/{id}/members`, which return the
 * existing one of that name (200) or make it (201). Keys are then created for
 * an account, project and member through `POST /api/admin/keys`.
 */
export function adminAccountsRouter(accounts: AccountAdmin, adminToken: string | undefined, jsonBody: RequestHandler): Router {
  const router = Router();
  const admin = requireAdminToken(adminToken);

  router
    .route('/api/admin/accounts')
    .post(admin, jsonBody, async (req, res) => {
      res.status(201).json(await accounts.create(req.body));
    })
    .get(admin, async (_req, res) => {
      res.json({ object: 'list', data: await accounts.list() });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/admin/accounts/:id')
    .get(admin, async (req, res) => {
      res.json(await accounts.get(String(req.params.id)));
    })
    .all(methodNotAllowed(['GET']));

  for (const [path, kind] of [['projects', 'project'], ['members', 'member']] as const) {
    router
      .route(`/api/admin/accounts/:id/${path}`)
      .post(admin, jsonBody, async (req, res) => {
        const { owner, created } = await accounts.owner(String(req.params.id), kind, req.body);
        res.status(created ? 201 : 200).json(owner);
      })
      .all(methodNotAllowed(['POST']));
  }

  return router;
}
