import { Router } from 'express';
import type { Database } from '../db/database';
import type { GatewayMetrics } from './metrics';

/** `/healthz` (the process answers), `/readyz` (it can reach its database and is not draining), `/metrics`. */
export function healthRouter(db: Database, metrics: GatewayMetrics, isDraining: () => boolean): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (isDraining()) return void res.status(503).json({ status: 'draining' });
    try {
      await db.query('SELECT 1', []);
      res.json({ status: 'ready', database: db.kind });
    } catch (err) {
      res.status(503).json({ status: 'unavailable', database: db.kind, reason: (err as Error).message });
    }
  });
  router.get('/metrics', (_req, res) => {
    res.type('text/plain; version=0.0.4').send(metrics.render());
  });
  return router;
}
