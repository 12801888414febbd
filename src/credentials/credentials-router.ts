import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { isWellFormedId } from '../db/well-formed-id';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import { methodNotAllowed } from '../http/method-not-allowed';
import { locals } from '../http/request-locals';
import { DEFAULT_CREDENTIAL_SECONDS, MAX_CREDENTIAL_SECONDS, type CredentialView } from '../keys/credential-store';
import { domainNameSchema } from '../keys/domain-name';
import { mcpToolPatternSchema } from '../keys/mcp-tool-scope';
import type { Principal } from '../keys/principal';
import { mintCredential, type CredentialServices } from './mint-credential';


export const mintCredentialSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  expires_in: z.number().int().min(60).max(MAX_CREDENTIAL_SECONDS).default(DEFAULT_CREDENTIAL_SECONDS),
  models: z.array(z.string().min(1).max(256)).min(1).max(1000).optional(),
  /** A total hard budget of the credential's own, in micro-USD, on top of the parent's budgets. */
  budget_microusd: z.number().int().nonnegative().max(1_000_000_000_000_000).optional(),
  allowed_domains: z.array(domainNameSchema).min(1).max(100).optional(),
  /** MCP tools (names or patterns) it may use, within its parent's; left out: its parent's. */
  mcp_tools: z.array(mcpToolPatternSchema).max(200).optional(),
});

/**
 * Temporary credentials, minted by a key for itself (not by the admin):
 * `POST /api/credentials` (the secret is returned once), `GET` its list, and
 * `DELETE /api/credentials/{id}`. A credential with `budget_microusd` gets a
 * hard total budget of its own, which puts the account under spend control.
 */
export function credentialsRouter(deps: CredentialServices, jsonBody: RequestHandler): Router {
  const router = Router();
  const parentOf = (res: Parameters<RequestHandler>[1]): Principal => {
    const principal = locals(res).principal!;
    if (principal.parentKeyId !== null) throw new GatewayError('credential_not_allowed', 'A temporary credential cannot mint, list or revoke credentials; use the key that minted it.');
    return principal;
  };

  router
    .route('/api/credentials')
    .post(jsonBody, async (req, res) => {
      const parent = parentOf(res);
      const body = parseRequest(mintCredentialSchema, req.body);
      const minted = await mintCredential(deps, parent, {
        name: body.name, expiresInSeconds: body.expires_in, models: body.models, allowedDomains: body.allowed_domains, mcpTools: body.mcp_tools,
        budgetMicrousd: body.budget_microusd === undefined ? undefined : BigInt(body.budget_microusd),
      });
      res.status(201).json(minted);
    })
    .get(async (_req, res) => {
      res.json({ object: 'list', data: await deps.credentials.list(parentOf(res).keyId) });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/credentials/:id')
    .delete(async (req, res) => {
      const parent = parentOf(res);
      const id = String(req.params.id);
      const revoked: CredentialView | null = isWellFormedId(id) ? await deps.credentials.revoke(parent.keyId, id) : null;
      if (!revoked) throw new GatewayError('credential_not_found', `No temporary credential "${id}" minted by this key. GET /api/credentials lists them.`);
      res.json(revoked);
    })
    .all(methodNotAllowed(['DELETE']));

  return router;
}
