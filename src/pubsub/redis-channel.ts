import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../observability/logger';
import type { Counter } from '../observability/metrics';

export interface RedisChannelOptions {
  /** What the messages are for, in log lines: "GraphQL subscriptions", "key revocations". */
  purpose: string;
  logger: Logger;
  /** Counts every message Redis did not take. */
  publishFailures: Counter;
  /** A publish Redis has not answered by then fails (a Redis that hangs instead of refusing); unset: no limit. */
  publishTimeoutMs?: number;
  /** Called once Redis has confirmed the first subscription (ioredis renews it by itself after a reconnect). */
  onSubscribed?: () => void;
}

/** How long a first publish waits for the connection when no publish time-out is set. */
const FIRST_CONNECTION_WAIT_MS = 5_000;

/** A received message: the object that was published, without the sender's origin. */
export type ChannelMessage = Record<string, unknown>;

/**
 * One Redis pub/sub channel between gateway instances: JSON objects out,
 * JSON objects in, never this instance's own back.
 *
 * Two connections, since a connection in subscriber mode can run no other
 * command. The publishing one has no offline queue, so a publish while Redis
 * is away fails at once (counted, and answered to the caller) instead of
 * piling up for seconds; the subscribing one reconnects and subscribes again
 * by itself. Connection errors are logged at most once every ten seconds, so
 * an outage does not flood the log. Nothing here ever rejects unhandled.
 */
export class RedisChannel {
  private readonly origin = randomUUID();
  private lastWarning = 0;

  /** Settles when the publishing connection is first ready, or failed, or after the publish time-out: until then a publish waits for it. */
  private firstConnection: Promise<void> | null;

  private constructor(
    readonly channel: string,
    private readonly options: RedisChannelOptions,
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
  ) {
    this.firstConnection = new Promise<void>((settle) => {
      const timer = setTimeout(settle, options.publishTimeoutMs ?? FIRST_CONNECTION_WAIT_MS);
      timer.unref();
      const settled = () => {
        clearTimeout(timer);
        publisher.off('ready', settled).off('error', settled);
        this.firstConnection = null;
        settle();
      };
      publisher.once('ready', settled).once('error', settled);
    });
  }

  static open(redisUrl: string, channel: string, options: RedisChannelOptions, onMessage: (message: ChannelMessage) => void): RedisChannel {
    const publisher = new Redis(redisUrl, {
      enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false,
      ...(options.publishTimeoutMs === undefined ? {} : { commandTimeout: options.publishTimeoutMs }),
    });
    const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const bus = new RedisChannel(channel, options, publisher, subscriber);
    for (const client of [publisher, subscriber]) client.on('error', (err: Error) => bus.warn(`Redis connection for ${options.purpose} failed; retrying`, err));
    subscriber.subscribe(channel).then(
      () => options.onSubscribed?.(),
      (err: Error) => bus.warn(`Redis subscription for ${options.purpose} failed; it is renewed on reconnect`, err),
    );
    subscriber.on('message', (from: string, raw: string) => {
      if (from !== channel) return;
      const message = bus.parse(raw);
      if (message) onMessage(message);
    });
    return bus;
  }

  /**
   * Sends the object to the other instances. Resolves to null once Redis has
   * taken it, or to the reason it did not (already counted in the metric);
   * never rejects.
   */
  async publish(message: ChannelMessage): Promise<Error | null> {
    // A publish made just after opening (a one-shot command's revocation) waits for the first connection
    // instead of failing at once for the want of an offline queue; later, Redis away fails it at once.
    if (this.firstConnection) await this.firstConnection;
    return this.publisher.publish(this.channel, JSON.stringify({ origin: this.origin, ...message })).then(
      () => null,
      (err: Error) => {
        this.options.publishFailures.inc();
        return err;
      },
    );
  }

  /** Logs a warning at most once every ten seconds: an outage should not flood the log. */
  warn(message: string, err: Error): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.options.logger.warn(message, { reason: err.message });
  }

  async close(): Promise<void> {
    // QUIT waits for a connection; a client that has none (Redis down) is simply dropped.
    await Promise.all([this.publisher, this.subscriber].map((client) => (client.status === 'ready' ? client.quit().catch(() => client.disconnect()) : client.disconnect())));
  }

  private parse(raw: string): ChannelMessage | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const { origin, ...message } = parsed as ChannelMessage;
    return origin === this.origin ? undefined : message;
  }
}

/** The URL without its password, for logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable REDIS_URL)';
  }
}
