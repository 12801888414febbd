import type { GatewayMetrics } from '../observability/metrics';
import type { Tracing } from '../observability/tracing';
import { ChannelHealth } from './channel-health';
import { RetryBudgets } from './retry-policy';

/**
 * What routing with fallback (`tryRoutes`, route-attempts.ts) keeps and
 * uses, one per gateway, made by the composition root and handed to every
 * service that calls upstreams: the cool-down and the retry budget of each
 * provider channel, the metrics it counts on, and the tracer of its
 * attempt spans. Nothing of it is shared between gateways in one process.
 */
export interface Routing {
  metrics: GatewayMetrics;
  health: ChannelHealth;
  retries: RetryBudgets;
  tracing: Tracing;
}

/** Fresh routing state: every channel healthy, with a full retry budget. */
export function newRouting(metrics: GatewayMetrics, tracing: Tracing): Routing {
  return { metrics, health: new ChannelHealth(), retries: new RetryBudgets(), tracing };
}
