import { print } from 'graphql';
import type { Client } from 'graphql-ws';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { ChatCompletionDocument, ModelsDocument, type ChatCompletionInput } from './generated/graphql';
import { runOverWs, wsClient } from './graphql-test-client';
import { eventually } from '../support/eventually';

const LONG_STORY = 'Tell me a long story [sim pace=50 words=400]';

function ask(content: string): { input: ChatCompletionInput } {
  return { input: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content }] } };
}

/** A chat stream that has started (its first event arrived), or the refusal that came instead. */
type Opened = { end: () => void; refused?: undefined } | { refused: any; end?: undefined };

function openStream(client: Client, content = LONG_STORY): Promise<Opened> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Opened) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const end = client.subscribe(
      { query: print(ChatCompletionDocument), variables: ask(content) },
      {
        next: (result) => settle(result.errors ? { refused: result.errors } : { end }),
        error: (err) => settle({ refused: err }),
        complete: () => settle({ refused: 'completed before its first event' }),
      },
    );
  });
}

describe.each(TEST_DATABASES)('graphql-ws within the REST limits (%s)', (database) => {
  let t: TestGateway;
  const clients: Client[] = [];

  const client = (key: string) => {
    const c = wsClient(t, { authorization: `Bearer ${key}` });
    clients.push(c);
    return c;
  };
  const restModels = (key: string) => fetch(`${t.baseURL}/models`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    t = await startTestGateway({
      database,
      env: { GATEWAY_MAX_BODY_BYTES: String(64 * 1024), GATEWAY_MAX_CONCURRENCY: '4', GATEWAY_MAX_SUBSCRIPTIONS_PER_KEY: '3' },
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    // Every place is free again before the next test.
    await eventually(async () => ((await restModels(await t.createKey())).status === 200 ? true : undefined), 'the guard to be free');
  });
  afterAll(() => t?.close());

  it('limits the operations one key keeps open (GATEWAY_MAX_SUBSCRIPTIONS_PER_KEY), on all its connections', async () => {
    const keyA = await t.createKey({ name: 'a' });
    const keyB = await t.createKey({ name: 'b' });
    const a = client(keyA);
    const streams = [await openStream(a), await openStream(a), await openStream(a)];
    for (const s of streams) expect(s.refused).toBeUndefined();

    for (const c of [a, client(keyA)]) {
      const fourth = await openStream(c);
      expect(fourth.refused).toEqual([
        {
          message: expect.stringContaining('already has 3 GraphQL operations open'),
          extensions: { code: 'too_many_subscriptions', status: 429, param: null, details: { maximum: 3 }, request_id: expect.stringMatching(/^req_[0-9a-f]{32}$/) },
        },
      ]);
    }
    // Another key has its own share.
    const b = await openStream(client(keyB));
    expect(b.refused).toBeUndefined();

    // Unsubscribing gives the place back.
    streams[0].end!();
    const again = await eventually(async () => {
      const opened = await openStream(a);
      return opened.refused ? undefined : opened;
    }, 'a place for key A after an unsubscribe');
    again.end!();
    b.end!();

    // So does a connection that goes away with its streams.
    await a.dispose();
    const fresh = client(keyA);
    const reopened = await eventually(async () => {
      const opened = await openStream(fresh);
      return opened.refused ? undefined : opened;
    }, 'a place for key A after its connection closed');
    expect(reopened.end).toBeDefined();
  });

  it('counts each running operation in the overload guard REST requests pass (GATEWAY_MAX_CONCURRENCY)', async () => {
    const keys = [await t.createKey({ name: 'c' }), await t.createKey({ name: 'd' }), await t.createKey({ name: 'e' })];
    const streams = [
      await openStream(client(keys[0])),
      await openStream(client(keys[0])),
      await openStream(client(keys[1])),
      await openStream(client(keys[1])),
    ];
    for (const s of streams) expect(s.refused).toBeUndefined();

    // Four streams fill a limit of four: a fifth operation, of any key, and a REST request are refused alike.
    const fifth = await openStream(client(keys[2]));
    expect(fifth.refused).toEqual([
      {
        message: expect.stringContaining('concurrency limit'),
        extensions: { code: 'gateway_overloaded', status: 503, param: null, request_id: expect.stringMatching(/^req_/) },
      },
    ]);
    const query = await runOverWs(client(keys[2]), ModelsDocument, {});
    expect(JSON.stringify(query.failure)).toContain('gateway_overloaded');
    const rest = await restModels(keys[2]);
    expect(rest.status).toBe(503);
    expect(((await rest.json()) as any).error.code).toBe('gateway_overloaded');

    streams[3].end!();
    const admitted = await eventually(async () => {
      const opened = await openStream(client(keys[2]));
      return opened.refused ? undefined : opened;
    }, 'a place once a stream ended');
    expect(admitted.end).toBeDefined();
  });

  it('closes a connection whose message is over the body limit (1009) before anything runs', async () => {
    const key = await t.createKey({ name: 'big message' });
    const marker = 'oversized-ws-message-marker';
    const outcome = await runOverWs(client(key), ChatCompletionDocument, ask(`${marker} ${'x'.repeat(1024 * 1024)}`));
    expect(outcome.results).toEqual([]);
    expect(outcome.failure).toMatchObject({ code: 1009 });
    const { requests } = await simulatorRequests(t);
    expect(requests.some((r) => JSON.stringify(r.body).includes(marker))).toBe(false);

    // Under the limit, the same subscription runs.
    const small = await runOverWs(client(key), ChatCompletionDocument, ask('Say hello [sim words=3]'));
    expect(small.failure).toBeUndefined();
    expect(small.results[small.results.length - 1].data!.chatCompletion.done).toBe(true);
  });
});
