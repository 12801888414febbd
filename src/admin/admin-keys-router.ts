import { isWellFormedId } from '../db/well-formed-id';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { requireAdminToken } from '../http/auth';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseRequest } from '../errors/parse-request';
import { domainNameSchema } from '../keys/domain-name';
import { UnknownAccountError, type ApiKeyView, type KeyStore } from '../keys/key-store';

export const createKeySchema = z.object({
  name: z.string().trim().min(1).max(200),
  models: z.array(z.string().min(1).max(256)).max(1000).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  account_id: z.string().min(1).max(128).optional(),
  project: z.string().trim().min(1).max(200).optional(),
  member: z.string().trim().min(1).max(200).optional(),
  /** Search result domains the key may receive; left out: every domain. */
  allowed_domains: z.array(domainNameSchema).max(100).optional(),
});

export const updateKeySchema = z.strictObject({
  /** The key's search domain allowlist; `[]` or null: every domain. */
  allowed_domains: z.array(domainNameSchema).max(100).nullable(),
});

/** Creates a key from a request body in the REST shape (admin REST and admin GraphQL); the secret is in the answer, once. */
export async function createKey(keys: KeyStore, body: unknown): Promise<ApiKeyView & { key: string }> {
  const input = parseRequest(createKeySchema, body);
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw Errors.validation('expires_at', 'must be in the future.');
  try {
    const { key, view } = await keys.create({
      name: input.name, models: input.models, expiresAt, accountId: input.account_id, project: input.project, member: input.member, allowedDomains: input.allowed_domains,
    });
    return { ...view, key };
  } catch (err) {
    if (err instanceof UnknownAccountError) throw new GatewayError('account_not_found', `No account "${err.accountId}".`, { param: 'account_id' });
    throw err;
  }
}

/** Changes what can change of a key (its search domain allowlist). */
export async function updateKey(keys: KeyStore, id: string, body: unknown): Promise<ApiKeyView> {
  const input = parseRequest(updateKeySchema, body);
  const view = isWellFormedId(id) ? await keys.setAllowedDomains(id, input.allowed_domains ?? []) : null;
  if (!view) throw new GatewayError('key_not_found', `No API key "${id}".`);
  return view;
}

/** The operator's key management: `POST /api/admin/keys` (the secret is returned once), list, `PATCH` its domain allowlist, revoke. */
export function adminKeysRouter(keys: KeyStore, adminToken: string | undefined, jsonBody: RequestHandler): Router {
  const router = Router();
  const admin = requireAdminToken(adminToken);

  router
    .route('/api/admin/keys')
    .post(admin, jsonBody, async (req, res) => {
      res.status(201).json(await createKey(keys, req.body));
    })
    .get(admin, async (_req, res) => {
      res.json({ object: 'list', data: await keys.list() });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/admin/keys/:id')
    .delete(admin, async (req, res, next) => {
      const id = String(req.params.id);
      const view = isWellFormedId(id) ? await keys.revoke(id) : null;
      if (!view) return next(new GatewayError('key_not_found', `No API key "${req.params.id}".`));
      res.json(view);
    })
    .patch(admin, jsonBody, async (req, res) => {
      res.json(await updateKey(keys, String(req.params.id), req.body));
    })
    .all(methodNotAllowed(['DELETE', 'PATCH']));

  return router;
}
