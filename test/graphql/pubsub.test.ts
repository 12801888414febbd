import { createLogger } from '../../src/observability/logger';
import { createSubscriptionPubSub, type SubscriptionPubSub } from '../../src/graphql/pubsub';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: Array<{ msg: string }> } {
  const lines: Array<{ msg: string }> = [];
  return { logger: createLogger('info', {}, (line) => void lines.push(JSON.parse(line))), lines };
}

describe('subscription pub/sub', () => {
  const opened: SubscriptionPubSub[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((p) => p.close()));
  });

  it('without REDIS_URL delivers in-process, and says that suits a single instance', async () => {
    const { logger, lines } = capturingLogger();
    const local = createSubscriptionPubSub(undefined, logger);
    opened.push(local);
    expect(local.delivery).toBe('in-process');
    expect(lines.map((l) => l.msg)).toEqual([expect.stringContaining('in-process delivery suits a single instance')]);

    const events = local.pubSub.subscribe('TASK_UPDATED')[Symbol.asyncIterator]();
    const received = events.next();
    local.pubSub.publish('TASK_UPDATED', { id: 'task_1' });
    expect((await received).value).toEqual({ id: 'task_1' });
    await events.return?.();
  });

  it('with REDIS_URL fans an event published on one instance out to another', async () => {
    const { logger, lines } = capturingLogger();
    const [instanceA, instanceB] = [createSubscriptionPubSub(REDIS_URL, logger), createSubscriptionPubSub(REDIS_URL, logger)];
    opened.push(instanceA, instanceB);
    expect(instanceA.delivery).toBe('redis');
    expect(lines[0].msg).toContain('fan out through Redis');

    const events = instanceB.pubSub.subscribe('TASK_UPDATED')[Symbol.asyncIterator]();
    const received = events.next();
    // Instance B's SUBSCRIBE reaches Redis asynchronously: publish until it has.
    let delivered = false;
    void received.then(() => (delivered = true));
    for (let i = 0; i < 100 && !delivered; i++) {
      instanceA.pubSub.publish('TASK_UPDATED', { id: 'task_2', status: 'completed' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await received).value).toEqual({ id: 'task_2', status: 'completed' });
    await events.return?.();
  });
});
