import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { BudgetStore, BudgetView } from '../billing/budget-store';
import type { Ledger } from '../billing/ledger';
import { reconcileSpend } from '../billing/spend-reconcile';
import type { WalletStore, WalletView } from '../billing/wallet-store';
import type { Database } from '../db/database';
import { isWellFormedId } from '../db/well-formed-id';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import { requireAdminToken } from '../http/auth';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { AccountStore } from '../keys/account-store';
import type { KeyStore } from '../keys/key-store';
import { singleQueryValue } from '../usage/spend-totals-params';

/** A billion US dollars: above it an amount is a typo, not money. */
const MAX_MICROUSD = 1_000_000_000_000_000;
const microusd = z.number().int().max(MAX_MICROUSD);
const note = z.string().trim().min(1).max(500);

const topUpSchema = z.strictObject({ amount_microusd: microusd.positive(), note: note.optional() });
const adjustmentSchema = z.strictObject({
  amount_microusd: microusd.min(-MAX_MICROUSD).refine((n) => n !== 0, 'must not be 0'),
  note,
});
const walletChangeSchema = z.strictObject({ credit_limit_microusd: microusd.nonnegative().nullable() });
const budgetSchema = z.strictObject({
  scope: z.enum(['key', 'project', 'member', 'account']),
  /** The key, project or member id; omitted for an account budget. */
  scope_id: z.string().min(1).max(128).optional(),
  period: z.enum(['total', 'monthly', 'daily']),
  limit_microusd: microusd.nonnegative(),
  mode: z.enum(['hard', 'soft']).default('hard'),
});
const budgetChangeSchema = z.strictObject({ limit_microusd: microusd.nonnegative().optional(), mode: z.enum(['hard', 'soft']).optional() });

export interface SpendAdminDeps {
  db: Pick<Database, 'query'>;
  accounts: AccountStore;
  keys: Pick<KeyStore, 'accountChanged'>;
  wallets: WalletStore;
  budgets: BudgetStore;
  ledger: Ledger;
}

/**
 * The operator's spend control, behind the admin token:
 * - `GET|PATCH /api/admin/accounts/{id}/wallet` (balance, held, credit limit),
 *   `POST …/wallet/top-ups` and `…/wallet/adjustments` (one ledger entry each);
 * - `GET|POST /api/admin/accounts/{id}/budgets`, `GET|PATCH|DELETE /api/admin/budgets/{id}`;
 * - `GET /api/admin/accounts/{id}/ledger?limit=&before=` (newest first);
 * - `GET /api/admin/reconcile?account_id=` (the invariants, recomputed).
 * The first wallet or budget of an account puts it under spend control, on
 * every instance within the key cache's reach (at once where Redis carries
 * key changes).
 */
export function adminSpendRouter(deps: SpendAdminDeps, adminToken: string | undefined, jsonBody: RequestHandler): Router {
  const router = Router();
  const admin = requireAdminToken(adminToken);
  const accountOf = async (raw: unknown): Promise<string> => {
    const id = String(raw);
    if (!isWellFormedId(id) || !(await deps.accounts.exists(id))) throw new GatewayError('account_not_found', `No account "${id}". GET /api/admin/accounts lists them.`);
    return id;
  };
  const budgetOf = async (raw: unknown): Promise<BudgetView> => {
    const id = String(raw);
    const budget = isWellFormedId(id) ? await deps.budgets.find(id) : null;
    if (!budget) throw new GatewayError('budget_not_found', `No budget "${id}". GET /api/admin/accounts/{account_id}/budgets lists an account's budgets.`);
    return budget;
  };
  /** Runs `change`; when the account had no wallet before, its keys are read again everywhere (they now hold before paid calls). */
  const controlling = async <T>(accountId: string, change: () => Promise<T>): Promise<T> => {
    const before = await deps.wallets.find(accountId);
    const result = await change();
    if (!before) await deps.keys.accountChanged(accountId);
    return result;
  };
  const walletOf = async (accountId: string): Promise<WalletView & { spend_controlled: boolean }> => {
    const wallet = await deps.wallets.find(accountId);
    if (wallet) return { ...wallet, spend_controlled: true };
    const now = new Date(0).toISOString();
    return { object: 'wallet', account_id: accountId, balance_microusd: 0, held_microusd: 0, credit_limit_microusd: null, created_at: now, updated_at: now, spend_controlled: false };
  };

  router
    .route('/api/admin/accounts/:id/wallet')
    .get(admin, async (req, res) => {
      res.json(await walletOf(await accountOf(req.params.id)));
    })
    .patch(admin, jsonBody, async (req, res) => {
      const accountId = await accountOf(req.params.id);
      const body = parseRequest(walletChangeSchema, req.body);
      await controlling(accountId, () => deps.wallets.setCreditLimit(accountId, body.credit_limit_microusd === null ? null : BigInt(body.credit_limit_microusd)));
      res.json(await walletOf(accountId));
    })
    .all(methodNotAllowed(['GET', 'PATCH']));

  for (const [path, kind, schema] of [['top-ups', 'top_up', topUpSchema], ['adjustments', 'adjustment', adjustmentSchema]] as const) {
    router
      .route(`/api/admin/accounts/:id/wallet/${path}`)
      .post(admin, jsonBody, async (req, res) => {
        const accountId = await accountOf(req.params.id);
        const body = parseRequest(schema, req.body);
        const entryId = await controlling(accountId, () => deps.wallets.move(accountId, kind, BigInt(body.amount_microusd), body.note ?? null));
        res.status(201).json({ entry_id: entryId, wallet: await walletOf(accountId) });
      })
      .all(methodNotAllowed(['POST']));
  }

  router
    .route('/api/admin/accounts/:id/ledger')
    .get(admin, async (req, res) => {
      const accountId = await accountOf(req.params.id);
      const limit = pageLimit(singleQueryValue(req.query, 'limit'));
      const before = singleQueryValue(req.query, 'before');
      if (before !== undefined && !/^[1-9][0-9]{0,17}$/.test(before)) throw Errors.validation('before', 'must be a ledger entry id (a positive integer) from next_before.');
      res.json(await deps.ledger.page(accountId, limit, before === undefined ? undefined : BigInt(before)));
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/admin/accounts/:id/budgets')
    .get(admin, async (req, res) => {
      res.json({ object: 'list', data: await deps.budgets.listForAccount(await accountOf(req.params.id)) });
    })
    .post(admin, jsonBody, async (req, res) => {
      const accountId = await accountOf(req.params.id);
      const body = parseRequest(budgetSchema, req.body);
      const scopeId = body.scope === 'account' ? accountId : body.scope_id;
      if (!scopeId) throw Errors.validation('scope_id', `is required for a ${body.scope} budget: the ${body.scope}'s id.`);
      if (body.scope === 'account' && body.scope_id !== undefined && body.scope_id !== accountId) throw Errors.validation('scope_id', 'of an account budget is the account itself; leave it out.');
      if (body.scope !== 'account' && !(isWellFormedId(scopeId) && (await deps.accounts.owns(accountId, body.scope, scopeId)))) {
        throw Errors.validation('scope_id', `"${scopeId}" is not a ${body.scope} of account ${accountId}.`);
      }
      const budget = await controlling(accountId, async () => {
        await deps.wallets.ensure(accountId);
        return deps.budgets.create({ accountId, scope: body.scope, scopeId, period: body.period, limitMicrousd: BigInt(body.limit_microusd), mode: body.mode });
      });
      res.status(201).json(budget);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/admin/budgets/:id')
    .get(admin, async (req, res) => {
      res.json(await budgetOf(req.params.id));
    })
    .patch(admin, jsonBody, async (req, res) => {
      const budget = await budgetOf(req.params.id);
      const body = parseRequest(budgetChangeSchema, req.body);
      const updated = await deps.budgets.update(budget.id, { limitMicrousd: body.limit_microusd === undefined ? undefined : BigInt(body.limit_microusd), mode: body.mode });
      if (!updated) throw new GatewayError('budget_not_found', `Budget "${budget.id}" was removed meanwhile.`);
      res.json(updated);
    })
    .delete(admin, async (req, res) => {
      const budget = await budgetOf(req.params.id);
      await deps.budgets.remove(budget.id);
      res.json({ id: budget.id, object: 'budget', deleted: true });
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  router
    .route('/api/admin/reconcile')
    .get(admin, async (req, res) => {
      const raw = singleQueryValue(req.query, 'account_id');
      res.json(await reconcileSpend(deps.db, raw === undefined ? null : await accountOf(raw)));
    })
    .all(methodNotAllowed(['GET']));

  return router;
}

function pageLimit(raw: string | undefined): number {
  if (raw === undefined) return 100;
  if (!/^[0-9]{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > 500) throw Errors.validation('limit', 'must be an integer from 1 to 500.');
  return Number(raw);
}
