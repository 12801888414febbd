import { pgliteDatabase } from '../../test/support/pglite-database';
import { unhandledRejectionsDuring, unreachableRedis } from '../../test/support/unreachable-redis';
import { createLogger } from '../observability/logger';
import { GatewayMetrics, valueOf } from '../observability/metrics';
import type { KeyChange } from './key-change';
import { KeyChangeBus } from './key-change-bus';
import { KeyStore } from './key-store';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function capturingLogger() {
  const lines: Array<{ level: string; msg: string; [field: string]: unknown }> = [];
  return { logger: createLogger('info', {}, (line) => void lines.push(JSON.parse(line))), lines };
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return condition();
}

describe('the key change bus', () => {
  const opened: KeyChangeBus[] = [];
  afterAll(() => Promise.all(opened.map((bus) => bus.close())));

  function open(logger = createLogger('silent'), metrics = new GatewayMetrics(), url = REDIS_URL) {
    const bus = KeyChangeBus.throughRedis(url, { logger, metrics, cacheMs: 60_000 });
    opened.push(bus);
    return bus;
  }

  it("carries a change published by one instance to every other, never back to the publisher, and says when it listens", async () => {
    const { logger, lines } = capturingLogger();
    const [a, b] = [open(logger), open(logger)];
    const heardByA: KeyChange[] = [];
    const heardByB: KeyChange[] = [];
    a.onKeyChanged((change) => heardByA.push(change));
    b.onKeyChanged((change) => heardByB.push(change));
    expect(await until(() => lines.filter((l) => l.msg === 'key revocations reach this instance through Redis').length === 2, 5_000)).toBe(true);

    await a.keyChanged({ kind: 'key_changed', key_id: 'key_1' });
    expect(await until(() => heardByB.length > 0, 1_000)).toBe(true);
    expect(heardByB).toEqual([{ kind: 'key_changed', key_id: 'key_1' }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heardByA).toEqual([]);
  });

  describe('between two key stores on one database', () => {
    const database = pgliteDatabase();

    it('a key revoked on one instance leaves the cache of the other within a second', async () => {
      const { logger, lines } = capturingLogger();
      const [busA, busB] = [open(logger), open(logger)];
      const instanceA = new KeyStore(database(), 60_000, undefined, busA);
      const instanceB = new KeyStore(database(), 60_000, undefined, busB);
      busB.onKeyChanged((change) => instanceB.forget(change.key_id));
      expect(await until(() => lines.filter((l) => l.msg.startsWith('key revocations reach')).length === 2, 5_000)).toBe(true);

      const { key, view } = await instanceA.create({ name: 'shared' });
      expect((await instanceB.authenticate(key))?.keyId).toBe(view.id);
      expect(instanceB.cached(key)?.keyId).toBe(view.id);
      const revokedAt = Date.now();
      await instanceA.revoke(view.id);
      expect(await until(() => instanceB.cached(key) === undefined, 1_000)).toBe(true);
      expect(Date.now() - revokedAt).toBeLessThan(1_000);
      expect(await instanceB.authenticate(key)).toBeNull();
    });
  });

  describe('with Redis unreachable', () => {
    const redis = unreachableRedis();

    it('resolves at once, counts the change Redis did not take and logs a warning naming the key, every time', async () => {
      const unhandled = await unhandledRejectionsDuring(async () => {
        const metrics = new GatewayMetrics();
        const { logger, lines } = capturingLogger();
        const bus = open(logger, metrics, redis.url());
        const startedAt = Date.now();
        await bus.keyChanged({ kind: 'key_changed', key_id: 'key_a' });
        await bus.keyChanged({ kind: 'key_changed', key_id: 'key_b' });
        expect(Date.now() - startedAt).toBeLessThan(1_000);
        expect(await valueOf(metrics.keyChangePublishFailures)).toBe(2);
        expect(await valueOf(metrics.pubsubPublishFailures)).toBe(0);
        const warnings = lines.filter((l) => l.level === 'warn' && l.msg.startsWith('a key change reached this instance only'));
        expect(warnings.map((w) => w.key_id)).toEqual(['key_a', 'key_b']);
        expect(warnings[0]).toMatchObject({ other_instances_within_ms: 60_000 });
        expect(await metrics.render()).toMatch(/^gateway_key_change_publish_failures_total 2$/m);
      });
      expect(unhandled).toEqual([]);
    });
  });
});
