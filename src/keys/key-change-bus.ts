import type { Logger } from '../observability/logger';
import type { GatewayMetrics } from '../observability/metrics';
import { RedisChannel, redactedUrl } from '../pubsub/redis-channel';
import { keyChangeSchema, type KeyChange, type KeyChangeNotifier } from './key-change';

const CHANNEL = 'gateway:key-changes';

/** A revocation should not hold the admin's answer for long when Redis hangs instead of refusing. */
const PUBLISH_TIMEOUT_MS = 1_000;

export interface KeyChangeBusOptions {
  logger: Logger;
  metrics: GatewayMetrics;
  /** GATEWAY_KEY_CACHE_MS: how long another instance may still admit a key whose change it did not hear. */
  cacheMs: number;
}

/**
 * Key changes between gateway instances through Redis: each instance
 * publishes the changes it makes and drops from its caches the keys the
 * others changed, so a revocation reaches every instance as fast as Redis
 * delivers (milliseconds) instead of when their caches run out.
 *
 * Redis down: the change still stands in the database and on the instance
 * that made it; the publish fails fast, is logged (every one: revocations are
 * rare and each one matters) and counted in
 * `gateway_key_change_publish_failures_total`, and the other instances
 * drop the key within `GATEWAY_KEY_CACHE_MS`.
 */
export class KeyChangeBus implements KeyChangeNotifier {
  private readonly listeners: Array<(change: KeyChange) => void> = [];
  private channel!: RedisChannel;

  private constructor(private readonly options: KeyChangeBusOptions) {}

  static throughRedis(redisUrl: string, options: KeyChangeBusOptions): KeyChangeBus {
    const bus = new KeyChangeBus(options);
    const { logger, metrics } = options;
    bus.channel = RedisChannel.open(
      redisUrl,
      CHANNEL,
      {
        purpose: 'key revocations', logger, publishFailures: metrics.keyChangePublishFailures, publishTimeoutMs: PUBLISH_TIMEOUT_MS,
        onSubscribed: () => logger.info('key revocations reach this instance through Redis', { channel: CHANNEL, redis: redactedUrl(redisUrl) }),
      },
      (message) => bus.received(message),
    );
    return bus;
  }

  /** Calls the listener for every change another instance publishes. */
  onKeyChanged(listener: (change: KeyChange) => void): void {
    this.listeners.push(listener);
  }

  async keyChanged(change: KeyChange): Promise<void> {
    const err = await this.channel.publish(change);
    if (!err) return;
    this.options.logger.warn('a key change reached this instance only: Redis did not take it; the other instances drop the key when their cache runs out', {
      key_id: change.key_id, reason: err.message, other_instances_within_ms: this.options.cacheMs,
    });
  }

  close(): Promise<void> {
    return this.channel.close();
  }

  private received(message: unknown): void {
    // Kinds this version does not know (a newer instance's) are ignored, never an error.
    const parsed = keyChangeSchema.safeParse(message);
    if (!parsed.success) return;
    for (const listener of this.listeners) listener(parsed.data);
  }
}
