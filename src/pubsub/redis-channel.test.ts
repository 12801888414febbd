import { randomUUID } from 'node:crypto';
import { silentLogger } from '../observability/logger';
import { GatewayMetrics, valueOf } from '../observability/metrics';
import { unreachableRedis } from '../../test/support/unreachable-redis';
import { RedisChannel, type ChannelMessage } from './redis-channel';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function open(url: string, channel: string, onMessage: (m: ChannelMessage) => void = () => undefined, onSubscribed?: () => void) {
  const metrics = new GatewayMetrics();
  const bus = RedisChannel.open(url, channel, { purpose: 'a test', logger: silentLogger, publishFailures: metrics.keyChangePublishFailures, publishTimeoutMs: 1_000, onSubscribed }, onMessage);
  return { bus, metrics };
}

describe('RedisChannel', () => {
  const closing: RedisChannel[] = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((bus) => bus.close()));
  });

  it('delivers a message published at once after opening, as a one-shot command publishes its revocation', async () => {
    const channel = `test:${randomUUID()}`;
    const received: ChannelMessage[] = [];
    let subscribed!: () => void;
    const ready = new Promise<void>((resolve) => (subscribed = resolve));
    const listener = open(REDIS_URL, channel, (m) => received.push(m), () => subscribed());
    closing.push(listener.bus);
    await ready;

    // Five times, each from a channel opened in the same turn as its publish: the connection is not up yet.
    for (let i = 0; i < 5; i++) {
      const sender = open(REDIS_URL, channel);
      closing.push(sender.bus);
      expect(await sender.bus.publish({ kind: 'key_changed', n: i })).toBeNull();
      expect(await valueOf(sender.metrics.keyChangePublishFailures)).toBe(0);
    }
    const deadline = Date.now() + 5_000;
    while (received.length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received.map((m) => m.n)).toEqual([0, 1, 2, 3, 4]);
  });

  describe('on a Redis that drops every connection', () => {
    const redis = unreachableRedis();

    it('fails the first publish within the time-out instead of waiting for a connection, and counts it', async () => {
      const { bus, metrics } = open(redis.url(), `test:${randomUUID()}`);
      closing.push(bus);
      const startedAt = Date.now();
      expect(await bus.publish({ kind: 'key_changed' })).toBeInstanceOf(Error);
      expect(Date.now() - startedAt).toBeLessThan(3_000);
      expect(await valueOf(metrics.keyChangePublishFailures)).toBe(1);
      // Later publishes fail at once: no offline queue.
      const again = Date.now();
      expect(await bus.publish({ kind: 'key_changed' })).toBeInstanceOf(Error);
      expect(Date.now() - again).toBeLessThan(500);
    });
  });
});
