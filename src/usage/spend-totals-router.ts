import { Router } from 'express';
import { methodNotAllowed } from '../http/method-not-allowed';
import { locals } from '../http/request-locals';
import { KEY_SPEND_GROUPS } from './spend-groups';
import { parseSpendTotalsQuery } from './spend-totals-params';
import type { SpendTotals } from './spend-totals';

/** `GET /api/usage/totals?group_by=model,day&from=&to=`: the calling key's spend, never another key's. */
export function spendTotalsRouter(spend: SpendTotals): Router {
  const router = Router();
  router
    .route('/api/usage/totals')
    .get(async (req, res) => {
      const { groupBy, range } = parseSpendTotalsQuery(req.query as Record<string, unknown>, KEY_SPEND_GROUPS);
      res.json(await spend.totals({ keyId: locals(res).principal!.keyId }, groupBy, range));
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
