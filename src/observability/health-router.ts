import { Router } from 'express';
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
 * providers, so an operator may serve both on a port of their own
 * (`GATEWAY_OPS_PORT`) instead of the public one.
 */
export function opsRouter(checks: HealthChecks, metrics: GatewayMetrics): Router {
  const router = Router();
  router.get('/readyz', async (_req, res) => {
    if (checks.isDraining()) return void res.status(503).json({ status: 'draining' });
    // A load balancer sends new work elsewhere rather than to a gateway that would refuse it with 503 gateway_overloaded.
    if (checks.isFull()) return void res.status(503).json({ status: 'full', reason: 'every place under GATEWAY_MAX_CONCURRENCY is taken' });
    const writes = await checks.probeWrites();
    if (!writes.writable) return void res.status(503).json({ status: 'unavailable', database: checks.database, reason: writes.reason });
    res.json({ status: 'ready', database: checks.database });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.render());
  });
  return router;
}
