import { print } from 'graphql';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../support/test-gateway';
import { eventually } from '../support/eventually';
import { TaskUpdatedDocument, TasksUpdatedDocument } from './generated/graphql';
import { wsClient } from './graphql-test-client';

/** A subscription as the client sees it: what came, and how to unsubscribe. */
interface OpenSubscription {
  events: unknown[];
  errors: unknown[];
  unsubscribe: () => void;
}

function subscribe(client: Client, query: string, variables: Record<string, unknown> = {}): OpenSubscription {
  const events: unknown[] = [];
  const errors: unknown[] = [];
  const unsubscribe = client.subscribe({ query, variables }, {
    next: (result) => void (result.errors ? errors.push(result.errors) : events.push(result.data)),
    error: (err) => void errors.push(err),
    complete: () => undefined,
  });
  return { events, errors, unsubscribe };
}

/** How a client leaves its subscriptions. */
type Leaving = 'completes them' | 'closes its socket' | 'cuts its connection';

/**
 * Subscriptions whose resolver waits for an event (a task update) still give
 * their places back the moment the client leaves, however it leaves: each
 * test holds every place with such subscriptions, leaves, and waits for
 * the places (and the task-update listeners) to be free.
 */
describe('graphql-ws subscriptions give their places back', () => {
  let t: TestGateway;
  let keyA: string;
  let keyB: string;
  let runningTask: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    // Two places in all, both of which key A may hold.
    t = await startTestGateway({ env: { GATEWAY_MAX_CONCURRENCY: '2', GATEWAY_MAX_SUBSCRIPTIONS_PER_KEY: '2' } });
    keyA = await t.createKey({ name: 'subscriber' });
    keyB = await t.createKey({ name: 'rest caller' });
    const submitted = await fetch(`${t.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gen-imagine-video', prompt: 'a task that outlives the test [sim gen_ms=600000]', duration: 5 }),
    });
    // This model's API answers with the task's id as `request_id`.
    const task = (await submitted.json()) as { request_id: string };
    expect(submitted.status).toBe(200);
    runningTask = task.request_id;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });
  afterAll(() => t?.close());

  const restStatus = async (key: string) => (await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status;
  const readiness = async () => {
    const res = await fetch(`${t.url}/readyz`);
    return { status: res.status, body: (await res.json()) as { status: string } };
  };
  const taskUpdateSubscribers = async () => Number(/^gateway_task_update_subscribers (\d+)$/m.exec(await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text())?.[1]);

  /** A client of key A whose raw sockets the test can reach. */
  function clientOfA(): { client: Client; sockets: WebSocket[] } {
    const sockets: WebSocket[] = [];
    class RecordedWebSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols);
        sockets.push(this);
      }
    }
    const client = wsClient(t, { authorization: `Bearer ${keyA}` }, { webSocketImpl: RecordedWebSocket });
    clients.push(client);
    return { client, sockets };
  }

  /** Both places held by key A's subscriptions, each waiting for a task update. */
  async function holdEveryPlace(client: Client): Promise<OpenSubscription[]> {
    const one = subscribe(client, print(TaskUpdatedDocument), { id: runningTask });
    const all = subscribe(client, print(TasksUpdatedDocument));
    // taskUpdated sends the task's current state first; tasksUpdated sends nothing until a change.
    await eventually(async () => (one.events.length > 0 ? true : undefined), () => `taskUpdated's first event (errors: ${JSON.stringify(one.errors)})`);
    await eventually(async () => ((await restStatus(keyB)) === 503 ? true : undefined), 'both places taken');
    expect(all.errors).toEqual([]);
    return [one, all];
  }

  it('/readyz says not ready while every place is taken, and ready again once one is free', async () => {
    const { client } = clientOfA();
    const held = await holdEveryPlace(client);
    const full = await readiness();
    expect(full).toEqual({ status: 503, body: { status: 'full', reason: expect.stringContaining('GATEWAY_MAX_CONCURRENCY') } });

    held[1].unsubscribe();
    await eventually(async () => ((await readiness()).status === 200 ? true : undefined), '/readyz ready again');
  });

  it.each<Leaving>(['completes them', 'closes its socket', 'cuts its connection'])('when the client %s, whatever the subscriptions await', async (leaving) => {
    const { client, sockets } = clientOfA();
    const held = await holdEveryPlace(client);
    expect(await taskUpdateSubscribers()).toBe(2);

    if (leaving === 'completes them') for (const s of held) s.unsubscribe();
    // A close frame (1000); the client is done, so it does not reconnect.
    else if (leaving === 'closes its socket') await client.dispose();
    // No close frame: the TCP connection just ends.
    else sockets[0]!.terminate();

    // The places under GATEWAY_MAX_CONCURRENCY: another key's REST call is served again.
    await eventually(async () => ((await restStatus(keyB)) === 200 ? true : undefined), 'a REST call of another key to be served');
    // The task-update listeners are gone with the subscriptions.
    await eventually(async () => ((await taskUpdateSubscribers()) === 0 ? true : undefined), 'no task-update subscriber left');
    // Key A's own share (GATEWAY_MAX_SUBSCRIPTIONS_PER_KEY): it may hold both places again.
    const again = clientOfA().client;
    await holdEveryPlace(again);
    await again.dispose();
    await eventually(async () => ((await restStatus(keyB)) === 200 ? true : undefined), 'the places free after the test');
  });
});
