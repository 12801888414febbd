import { Router, type RequestHandler } from 'express';
import type { GatewayMetrics } from './metrics';

export interface HealthChecks {
  /** `postgres` or `pglite`, for the readiness answer. */
  database: string;
  isDraining: () => boolean;
  /** Whether every place under GATEWAY_MAX_CONCURRENCY is taken, so new work would be refused. */
  isFull: () => boolean;
  /** Whether usage records can be committed now (the database takes writes). */
  probeWrites: () => Promise<{ writable: boolean; reason?: string }>;
}

/** `/healthz`: the process answers. */
export function livenessRouter(): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  return router;
}

/**
 * `/readyz` (it is not draining, has a free place for new work and can write
 * its records) and `/metrics`.
 * The readiness answer carries no raw database error; the metrics name
 * providers, models and accounts, so `/metrics` passes `guard` first: on the
 * public port the composition root gives a bearer-token check, on the
 * operator's own port (`GATEWAY_OPS_PORT`) none.
 */
export function opsRouter(checks: HealthChecks, metrics: GatewayMetrics, guard?: RequestHandler): Router {
  const router = Router();
  router.get('/readyz', async (_req, res) => {
    if (checks.isDraining()) return void res.status(503).json({ status: 'draining' });
    // A load balancer sends new work elsewhere rather than to a gateway that would refuse it with 503 gateway_overloaded.
    if (checks.isFull()) return void res.status(503).json({ status: 'full', reason: 'every place under GATEWAY_MAX_CONCURRENCY is taken' });
    const writes = await checks.probeWrites();
    if (!writes.writable) return void res.status(503).json({ status: 'unavailable', database: checks.database, reason: writes.reason });
    res.json({ status: 'ready', database: checks.database });
  });
  router.get('/metrics', ...(guard ? [guard] : []), async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.render());
  });
  return router;
}
