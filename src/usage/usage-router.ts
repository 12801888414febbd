import { Router } from 'express';
import { Errors } from '../errors/errors';
import { methodNotAllowed } from '../http/method-not-allowed';
import { locals } from '../http/request-locals';
import type { UsageQueries } from './usage-queries';

/** `GET /api/usage/requests/{request_id}`: readable only by the key that made the request. */
export function usageRouter(queries: UsageQueries): Router {
  const router = Router();
  router
    .route('/api/usage/requests/:requestId')
    .get(async (req, res, next) => {
      const id = String(req.params.requestId);
      const record = await queries.byId(locals(res).principal!, id);
      if (!record) return next(Errors.usageRecordNotFound(id));
      res.json(record);
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
