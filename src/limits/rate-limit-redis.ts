import { Redis } from 'ioredis';
import type { Logger } from '../observability/logger';

/**
 * The Redis connection the rate limits count on, separate from the
 * subscriptions' (so a slow fan-out never delays an admission). No offline
 * queue and no retries per command: while Redis is away a check fails at
 * once and the configured Redis-down behaviour applies. Auto-pipelining
 * sends the checks of one request (one Lua call per limit) in one write, so
 * a request costs one round trip whatever the number of limits.
 */
export async function openRateLimitRedis(url: string, logger: Logger, readyWithinMs = 1000): Promise<Redis> {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, enableAutoPipelining: true, connectTimeout: 1000 });
  let lastWarning = 0;
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastWarning < 60_000) return;
    lastWarning = now;
    logger.warn('Redis connection for rate limits failed; retrying', { reason: err.message });
  });
  // The first requests should count across instances too: wait a moment for the connection, never longer.
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), readyWithinMs).unref();
    client.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready) logger.warn('Redis for rate limits is not reachable yet; checks follow GATEWAY_RATE_LIMIT_REDIS_DOWN until it is');
  return client;
}

/** Closes the connection without waiting on a Redis that is away. */
export async function closeRateLimitRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}
