import { GatewayError } from '../errors/gateway-error';
import type { Logger } from '../observability/logger';
import type { GatewayMetrics } from '../observability/metrics';
import { RedisChannel, redactedUrl, type ChannelMessage } from '../pubsub/redis-channel';
import type { TaskEvents } from '../videos/task-events';
import { taskSnapshot, type TaskSnapshot } from '../videos/video-views';

/** Events a subscriber may leave unread before it is ended (its own, never anyone else's). */
export const MAX_PENDING_TASK_UPDATES = 256;

const CHANNEL = 'gateway:task-updates';

/** One subscriber's task updates: an async iterator that can always be ended. */
export type TaskUpdateStream = AsyncIterableIterator<TaskSnapshot> & { return(): Promise<IteratorResult<TaskSnapshot>> };

/**
 * Task state changes for GraphQL subscribers, by API key: a subscriber hears
 * only its own key's tasks, and its unread events are bounded: a subscriber
 * that stops reading is ended with `subscription_too_slow`, and nobody else
 * (no other subscriber, not the publisher, not the process) notices.
 *
 * With Redis, every change is also published for the other instances. A
 * change is always delivered to this instance's subscribers at once, so
 * Redis being down costs only the other instances' watchers: the publish
 * fails fast (counted in `gateway_pubsub_publish_failures_total` and
 * logged), the gateway keeps serving, and the clients reconnect on their own.
 */
export class TaskUpdateBus implements TaskEvents {
  private readonly byKey = new Map<string, Set<Subscriber>>();
  private redis: RedisChannel | undefined;

  private constructor(readonly delivery: 'redis' | 'in-process') {}

  static inProcess(logger: Logger, _metrics: GatewayMetrics): TaskUpdateBus {
    logger.info('GraphQL subscriptions are delivered in-process; in-process delivery suits a single instance (set REDIS_URL to run several)');
    return new TaskUpdateBus('in-process');
  }

  static throughRedis(redisUrl: string, logger: Logger, metrics: GatewayMetrics): TaskUpdateBus {
    const bus = new TaskUpdateBus('redis');
    bus.redis = RedisChannel.open(
      redisUrl, CHANNEL, { purpose: 'GraphQL subscriptions', logger, publishFailures: metrics.pubsubPublishFailures },
      (message) => bus.received(message),
    );
    logger.info('GraphQL subscriptions fan out through Redis', { redis: redactedUrl(redisUrl) });
    return bus;
  }

  publish(task: Parameters<TaskEvents['publish']>[0]): void {
    const snapshot = taskSnapshot(task);
    this.deliver(snapshot);
    const redis = this.redis;
    void redis?.publish({ task: snapshot }).then((err) => err && redis.warn('a task update reached this instance\'s subscribers only: Redis is unavailable', err));
  }

  /** The key's task updates from now on, until the stream is returned or `until` fires (a waiting `next()` then resolves as done). */
  subscribe(keyId: string, until?: AbortSignal): TaskUpdateStream {
    const stop = () => subscriber.end();
    const subscriber = new Subscriber(() => {
      until?.removeEventListener('abort', stop);
      const set = this.byKey.get(keyId);
      set?.delete(subscriber);
      if (set?.size === 0) this.byKey.delete(keyId);
    });
    let set = this.byKey.get(keyId);
    if (!set) this.byKey.set(keyId, (set = new Set()));
    set.add(subscriber);
    if (until?.aborted) subscriber.end();
    else until?.addEventListener('abort', stop, { once: true });
    return subscriber;
  }

  /** Subscribers open now, for metrics and tests. */
  get subscriberCount(): number {
    let n = 0;
    for (const set of this.byKey.values()) n += set.size;
    return n;
  }

  async close(): Promise<void> {
    for (const set of [...this.byKey.values()]) for (const subscriber of [...set]) subscriber.end();
    await this.redis?.close();
  }

  /** A change another instance published (this instance's own never come back). */
  private received(message: ChannelMessage): void {
    const task = message.task as TaskSnapshot | undefined;
    if (!task || typeof task.keyId !== 'string') return;
    this.deliver(task);
  }

  private deliver(snapshot: TaskSnapshot): void {
    const subscribers = this.byKey.get(snapshot.keyId);
    if (subscribers) for (const subscriber of [...subscribers]) subscriber.push(snapshot);
  }
}

/** One subscriber's bounded queue of unread events. */
class Subscriber implements TaskUpdateStream {
  private readonly pending: TaskSnapshot[] = [];
  private waiting: { resolve: (step: IteratorResult<TaskSnapshot>) => void; reject: (err: unknown) => void } | undefined;
  private failure: GatewayError | undefined;
  private ended = false;

  constructor(private readonly detach: () => void) {}

  push(snapshot: TaskSnapshot): void {
    if (this.ended) return;
    if (this.waiting) {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting.resolve({ done: false, value: snapshot });
      return;
    }
    if (this.pending.length < MAX_PENDING_TASK_UPDATES) {
      this.pending.push(snapshot);
      return;
    }
    this.failure = new GatewayError('subscription_too_slow', `This subscription left more than ${MAX_PENDING_TASK_UPDATES} task updates unread and was ended. Read events as they come, then subscribe again.`);
    this.pending.length = 0;
    this.end();
  }

  next(): Promise<IteratorResult<TaskSnapshot>> {
    const value = this.pending.shift();
    if (value) return Promise.resolve({ done: false, value });
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  return(): Promise<IteratorResult<TaskSnapshot>> {
    this.pending.length = 0;
    this.failure = undefined;
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.detach();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): TaskUpdateStream {
    return this;
  }
}
