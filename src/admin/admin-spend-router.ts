import { Router, type RequestHandler } from 'express';
import { nextCursor } from '../db/page';
import { requireAdminToken } from '../http/auth';
import { methodNotAllowed } from '../http/method-not-allowed';
import { singleQueryValue } from '../usage/spend-totals-params';
import type { SpendAdmin } from './spend-admin';

/**
 * The operator's spend control over REST, behind the admin token (the same
 * SpendAdmin as the admin GraphQL):
 * - `GET|PATCH /api/admin/accounts/{id}/wallet` (balance, held, credit limit),
 *   `POST …/wallet/top-ups` and `…/wallet/adjustments` (one ledger entry each);
 * - `GET|POST /api/admin/accounts/{id}/budgets`, `GET|PATCH|DELETE /api/admin/budgets/{id}`;
 * - `GET /api/admin/accounts/{id}/ledger?limit=&before=` (newest first);
 * - `POST /api/admin/refunds` (a settled charge, or part of it, back to its wallet and key);
 * - `GET /api/admin/reconcile?account_id=` (the invariants, recomputed).
 */
export function adminSpendRouter(spend: SpendAdmin, adminToken: string | undefined, jsonBody: RequestHandler): Router {
  const router = Router();
  const admin = requireAdminToken(adminToken);
  const accountOf = (raw: unknown) => spend.account(String(raw));

  router
    .route('/api/admin/accounts/:id/wallet')
    .get(admin, async (req, res) => {
      res.json(await spend.wallet(await accountOf(req.params.id)));
    })
    .patch(admin, jsonBody, async (req, res) => {
      res.json(await spend.setCreditLimit(await accountOf(req.params.id), req.body));
    })
    .all(methodNotAllowed(['GET', 'PATCH']));

  for (const [path, kind] of [['top-ups', 'top_up'], ['adjustments', 'adjustment']] as const) {
    router
      .route(`/api/admin/accounts/:id/wallet/${path}`)
      .post(admin, jsonBody, async (req, res) => {
        res.status(201).json(await spend.move(await accountOf(req.params.id), kind, req.body));
      })
      .all(methodNotAllowed(['POST']));
  }

  router
    .route('/api/admin/accounts/:id/ledger')
    .get(admin, async (req, res) => {
      const page = await spend.ledger(await accountOf(req.params.id), singleQueryValue(req.query, 'limit'), singleQueryValue(req.query, 'before'));
      res.json({ object: 'list', data: page.items, has_more: page.hasMore, next_before: nextCursor(page) });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/admin/accounts/:id/budgets')
    .get(admin, async (req, res) => {
      res.json({ object: 'list', data: await spend.budgets(await accountOf(req.params.id)) });
    })
    .post(admin, jsonBody, async (req, res) => {
      res.status(201).json(await spend.createBudget(await accountOf(req.params.id), req.body));
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/admin/budgets/:id')
    .get(admin, async (req, res) => {
      res.json(await spend.budget(String(req.params.id)));
    })
    .patch(admin, jsonBody, async (req, res) => {
      res.json(await spend.updateBudget(String(req.params.id), req.body));
    })
    .delete(admin, async (req, res) => {
      res.json(await spend.deleteBudget(String(req.params.id)));
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  router
    .route('/api/admin/refunds')
    .post(admin, jsonBody, async (req, res) => {
      res.status(201).json(await spend.refund(req.body));
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/api/admin/reconcile')
    .get(admin, async (req, res) => {
      res.json(await spend.reconcile(singleQueryValue(req.query, 'account_id') ?? null));
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
