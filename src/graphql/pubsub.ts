import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from '@graphql-yoga/subscription';
import { Redis } from 'ioredis';
import type { PubSub } from 'type-graphql';
import type { Logger } from '../observability/logger';

export interface SubscriptionPubSub {
  pubSub: PubSub;
  /** Through Redis, an event published on any instance reaches subscribers on all of them. */
  delivery: 'redis' | 'in-process';
  close(): Promise<void>;
}

/**
 * The pub/sub behind topic-based subscriptions: Redis when `redisUrl` is
 * set, so that a task finished by one instance reaches a watcher connected
 * to another; otherwise in-process, which is only correct for one instance.
 */
export function createSubscriptionPubSub(redisUrl: string | undefined, logger: Logger): SubscriptionPubSub {
  if (!redisUrl) {
    logger.info('GraphQL subscriptions are delivered in-process; in-process delivery suits a single instance (set REDIS_URL to run several)');
    return { pubSub: createPubSub(), delivery: 'in-process', close: async () => undefined };
  }
  // A connection in subscriber mode can run no other command, so publishing needs a second one.
  const publishClient = new Redis(redisUrl);
  const subscribeClient = new Redis(redisUrl);
  for (const client of [publishClient, subscribeClient]) {
    client.on('error', (err: Error) => logger.warn('Redis connection for GraphQL subscriptions failed; retrying', { reason: err.message }));
  }
  logger.info('GraphQL subscriptions fan out through Redis', { redis: redactedUrl(redisUrl) });
  return {
    pubSub: createPubSub({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) }),
    delivery: 'redis',
    close: async () => {
      await Promise.all([publishClient, subscribeClient].map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}

/** The URL without its password, for logs. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable REDIS_URL)';
  }
}
