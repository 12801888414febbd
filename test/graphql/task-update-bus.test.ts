import { readUntil } from '../support/eventually';
import { unhandledRejectionsDuring, unreachableRedis } from '../support/unreachable-redis';
import { TaskUpdateBus, MAX_PENDING_TASK_UPDATES, type TaskUpdateStream } from '../../src/graphql/task-update-bus';
import { createLogger } from '../../src/observability/logger';
import { GatewayMetrics, valueOf } from '../../src/observability/metrics';
import type { VideoTask } from '../../src/videos/video-task';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: Array<{ msg: string }> } {
  const lines: Array<{ msg: string }> = [];
  return { logger: createLogger('info', {}, (line) => void lines.push(JSON.parse(line))), lines };
}

let version = 0;
/** A task row as the video service publishes it. */
function task(id: string, keyId: string, status = 'in_progress'): VideoTask {
  const at = new Date();
  return {
    id, keyId, accountId: 'acc', requestId: `req_${id}`, model: 'sora-2', api: 'openai', provider: 'sim', upstreamModel: 'sora-2', lane: 'standard',
    upstreamId: 'up', status, progress: 10, params: { prompt: 'p', durationSeconds: 4, billingDimension: 'video_seconds_720p' }, result: null, error: null,
    remixedFrom: null, version: ++version, pollCount: 0, nextPollAt: at, deadlineAt: at, leaseOwner: null, leaseUntil: null, createdAt: at, updatedAt: at, completedAt: null, deletedAt: null,
  };
}

async function nextWithin(stream: TaskUpdateStream, ms: number) {
  return Promise.race([stream.next(), new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))]);
}

describe('the task update bus', () => {
  const opened: TaskUpdateBus[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((b) => b.close()));
  });

  it('without REDIS_URL delivers in-process, only to subscribers of the task\'s key, and says it suits one instance', async () => {
    const { logger, lines } = capturingLogger();
    const bus = TaskUpdateBus.inProcess(logger, new GatewayMetrics());
    opened.push(bus);
    expect(bus.delivery).toBe('in-process');
    expect(lines.map((l) => l.msg)).toEqual([expect.stringContaining('in-process delivery suits a single instance')]);
    const mine = bus.subscribe('key_a');
    const theirs = bus.subscribe('key_b');
    bus.publish(task('task_1', 'key_a'));
    expect((await mine.next()).value).toMatchObject({ id: 'task_1', keyId: 'key_a' });
    expect(await nextWithin(theirs, 50)).toBe('timeout');
    await mine.return();
    await theirs.return();
    expect(bus.subscriberCount).toBe(0);
  });

  it('ends a subscriber that stops reading, keeps its queue bounded, and leaves the others and the publisher alone', async () => {
    const bus = TaskUpdateBus.inProcess(createLogger('silent'), new GatewayMetrics());
    opened.push(bus);
    const stalled = bus.subscribe('key_a');
    const reader = bus.subscribe('key_a');
    const other = bus.subscribe('key_b');
    const read: string[] = [];
    const reading = (async () => {
      for await (const event of reader) if (read.push(event.id) === 5 * MAX_PENDING_TASK_UPDATES) return;
    })();
    for (let i = 0; i < 5 * MAX_PENDING_TASK_UPDATES; i++) {
      // Publishing never throws, however far behind a subscriber is.
      expect(() => bus.publish(task(`t${i}`, 'key_a'))).not.toThrow();
      if (i % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await reading;
    expect(read).toHaveLength(5 * MAX_PENDING_TASK_UPDATES);
    await expect(stalled.next()).rejects.toMatchObject({ code: 'subscription_too_slow', status: 429 });
    expect(await stalled.next()).toEqual({ done: true, value: undefined });
    bus.publish(task('after', 'key_b'));
    expect((await other.next()).value).toMatchObject({ id: 'after' });
    await other.return();
    expect(bus.subscriberCount).toBe(0);
  });

  it('ends a subscriber when its signal fires, waking a next() that waits for an event', async () => {
    const bus = TaskUpdateBus.inProcess(createLogger('silent'), new GatewayMetrics());
    opened.push(bus);
    const operation = new AbortController();
    const stream = bus.subscribe('key_a', operation.signal);
    const waiting = stream.next();
    operation.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(bus.subscriberCount).toBe(0);
    // A signal that fired before subscribing ends the stream at once.
    expect(await bus.subscribe('key_a', operation.signal).next()).toEqual({ done: true, value: undefined });
    expect(bus.subscriberCount).toBe(0);
  });

  it('with REDIS_URL fans a change published on one instance out to the same key on another', async () => {
    const { logger, lines } = capturingLogger();
    const [a, b] = [TaskUpdateBus.throughRedis(REDIS_URL, logger, new GatewayMetrics()), TaskUpdateBus.throughRedis(REDIS_URL, logger, new GatewayMetrics())];
    opened.push(a, b);
    expect(a.delivery).toBe('redis');
    expect(lines[0].msg).toContain('fan out through Redis');
    const onB = b.subscribe('key_x');
    const onA = a.subscribe('key_x');
    // Instance B's SUBSCRIBE reaches Redis asynchronously: publish until it has.
    let received: IteratorResult<unknown> | 'timeout' = 'timeout';
    for (let i = 0; i < 100 && received === 'timeout'; i++) {
      a.publish(task('task_2', 'key_x', 'completed'));
      received = await nextWithin(onB, 50);
    }
    expect(received).toMatchObject({ value: { id: 'task_2', status: 'completed' } });
    // The publishing instance's own subscribers hear it once, locally, not again through Redis.
    const local: string[] = [];
    for (let step = await nextWithin(onA, 100); step !== 'timeout' && !step.done; step = await nextWithin(onA, 100)) local.push(step.value.id);
    expect(local.length).toBeGreaterThanOrEqual(1);
    expect(new Set(local)).toEqual(new Set(['task_2']));
    await onA.return();
    await onB.return();
  });

  describe('with Redis unreachable', () => {
    const redis = unreachableRedis();

    it('still delivers to this instance\'s subscribers, counts the failed publish, and never rejects unhandled', async () => {
      const unhandled = await unhandledRejectionsDuring(async () => {
        const metrics = new GatewayMetrics();
        const { logger, lines } = capturingLogger();
        const bus = TaskUpdateBus.throughRedis(redis.url(), logger, metrics);
        opened.push(bus);
        const local = bus.subscribe('key_z');
        for (let i = 0; i < 5; i++) bus.publish(task(`down_${i}`, 'key_z'));
        for (let i = 0; i < 5; i++) expect((await local.next()).value).toMatchObject({ id: `down_${i}` });
        await readUntil(() => valueOf(metrics.pubsubPublishFailures), (failures) => failures >= 5, 'the five failed publishes to be counted', 5000);
        expect(await valueOf(metrics.pubsubPublishFailures)).toBe(5);
        // One turn of the event loop: Node reports a rejection nobody handled once the microtasks after it have run.
        await new Promise((resolve) => setImmediate(resolve));
        expect(lines.some((l) => /Redis/.test(l.msg))).toBe(true);
        await local.return();
      });
      expect(unhandled).toEqual([]);
    });
  });
});
