import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { isWellFormedId } from '../db/well-formed-id';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import { requireAdminToken } from '../http/auth';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { AccountStore } from '../keys/account-store';

export const nameSchema = z.object({ name: z.string().trim().min(1).max(200) });

/**
 * The operator's accounts: `POST /api/admin/accounts` and list,
 * `GET /api/admin/accounts/{id}` (its projects, members and active key
 * count), and `POST …/{id}/projects` and `…/{id}/members`, which return the
 * existing one of that name (200) or make it (201). Keys are then created for
 * an account, project and member through `POST /api/admin/keys`.
 */
export function adminAccountsRouter(accounts: AccountStore, adminToken: string | undefined, jsonBody: RequestHandler): Router {
  const router = Router();
  const admin = requireAdminToken(adminToken);
  const existing = async (id: string) => {
    const account = isWellFormedId(id) ? await accounts.find(id) : null;
    if (!account) throw new GatewayError('account_not_found', `No account "${id}". GET /api/admin/accounts lists them.`);
    return account;
  };

  router
    .route('/api/admin/accounts')
    .post(admin, jsonBody, async (req, res) => {
      res.status(201).json(await accounts.create(parseRequest(nameSchema, req.body).name));
    })
    .get(admin, async (_req, res) => {
      res.json({ object: 'list', data: await accounts.list() });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/admin/accounts/:id')
    .get(admin, async (req, res) => {
      res.json(await existing(String(req.params.id)));
    })
    .all(methodNotAllowed(['GET']));

  for (const kind of ['projects', 'members'] as const) {
    router
      .route(`/api/admin/accounts/:id/${kind}`)
      .post(admin, jsonBody, async (req, res) => {
        const { name } = parseRequest(nameSchema, req.body);
        const account = await existing(String(req.params.id));
        const known = (kind === 'projects' ? account.projects : account.members).find((owner) => owner.name === name);
        const owner = known ?? (kind === 'projects' ? await accounts.project(account.id, name) : await accounts.member(account.id, name));
        res.status(known ? 200 : 201).json(owner);
      })
      .all(methodNotAllowed(['POST']));
  }

  return router;
}
