import { Router } from 'express';
import { Errors } from '../errors/errors';
import { requireAdminToken } from '../http/auth';
import { methodNotAllowed } from '../http/method-not-allowed';
import { ACCOUNT_SPEND_GROUPS, ALL_ACCOUNTS_SPEND_GROUPS } from '../usage/spend-groups';
import { parseSpendTotalsQuery, singleQueryValue } from '../usage/spend-totals-params';
import type { SpendTotals } from '../usage/spend-totals';

/**
 * `GET /api/admin/usage/totals?account_id=&group_by=key,project,member,...`:
 * the operator's view of spend, of one account or, without account_id, of
 * all of them (then `account` is a grouping too).
 */
export function adminUsageRouter(spend: SpendTotals, adminToken: string | undefined): Router {
  const router = Router();
  router
    .route('/api/admin/usage/totals')
    .get(requireAdminToken(adminToken), async (req, res) => {
      const query = req.query as Record<string, unknown>;
      const accountId = singleQueryValue(query, 'account_id');
      if (accountId === '') throw Errors.validation('account_id', 'is empty; name an account, or leave it out for all accounts.');
      const { groupBy, range } = parseSpendTotalsQuery(query, accountId === undefined ? ALL_ACCOUNTS_SPEND_GROUPS : ACCOUNT_SPEND_GROUPS);
      res.json({ ...(await spend.totals(accountId === undefined ? 'all_accounts' : { accountId }, groupBy, range)), account_id: accountId ?? null });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
