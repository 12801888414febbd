import { Client } from 'pg';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { eventually } from '../support/eventually';
import { simulatorRequests, startTestGateway, type TestGateway } from '../support/test-gateway';

/** Waits until the upstream has received a request carrying each of `markers`: those requests are then in flight. */
async function untilUpstreamReceived(t: TestGateway, markers: string[]): Promise<void> {
  await eventually(async () => {
    const bodies = (await simulatorRequests(t)).requests.map((r) => JSON.stringify(r.body));
    return markers.every((marker) => bodies.some((body) => body.includes(marker))) ? true : undefined;
  }, `the upstream to receive ${markers.join(' and ')}`);
}

describe('graceful shutdown (SIGTERM path) on PostgreSQL', () => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('stops taking requests, finishes those in flight, flushes their usage records, then exits', async () => {
    t = await startTestGateway({ database: 'postgres' });
    const key = await t.createKey({ name: 'shutdown' });
    const post = (body: unknown) =>
      fetch(`${t.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const streaming = post({ model: 'gpt-4.1-mini', stream: true, messages: [{ role: 'user', content: 'story [sim pace=15 words=120]' }] });
    const whole = post({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'slow [sim latency=400]' }] });
    await untilUpstreamReceived(t, ['story [sim', 'slow [sim latency=400]']);

    // Draining starts when shutdown is called; the listener stays open while the two run.
    const shutdown = t.gateway.shutdown('SIGTERM');
    const refused = await post({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'late' }] });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as any).error.code).toBe('gateway_shutting_down');

    const streamed = await streaming;
    const streamText = await streamed.text();
    expect(streamText.endsWith('data: [DONE]\n\n')).toBe(true);
    const wholeRes = await whole;
    expect(wholeRes.status).toBe(200);
    const ids = [streamed.headers.get('x-svc-request-id'), wholeRes.headers.get('x-svc-request-id')];
    await shutdown;

    const db = new Client({ connectionString: t.databaseUrl! });
    await db.connect();
    const rows = await db.query('SELECT id, status_code FROM usage_records WHERE id = ANY($1)', [ids]);
    await db.end();
    expect(rows.rows.map((r) => r.status_code).sort()).toEqual([200, 200]);
  });
});

describe('GraphQL while shutting down', () => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('refuses new subscriptions once draining, while requests in flight finish', async () => {
    t = await startTestGateway();
    const key = await t.createKey();
    const client = createClient({ url: `${t.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
    // Connected before the shutdown starts.
    for await (const r of client.iterate({ query: '{ models { id } }' })) void r;
    const slow = fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'slow [sim latency=600]' }] }),
    });
    await untilUpstreamReceived(t, ['slow [sim latency=600]']);
    const shutdown = t.gateway.shutdown('SIGTERM');
    const refused = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: 'subscription { tasksUpdated { id } }' }, { next: () => resolve('accepted'), error: (err) => resolve(err), complete: () => resolve('completed') });
    });
    expect(JSON.stringify(refused)).toContain('gateway_shutting_down');
    expect((await slow).status).toBe(200);
    await client.dispose();
    await shutdown;
  });
});

describe('half-sent requests at shutdown', () => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('does not wait for clients that never finish sending their headers or body', async () => {
    t = await startTestGateway({ env: { GATEWAY_SHUTDOWN_GRACE_MS: '3000' } });
    const { port } = new URL(t.url);
    const { connect } = await import('node:net');
    const open = (text: string) =>
      new Promise<import('node:net').Socket>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(text, () => resolve(socket)));
        socket.on('error', reject);
        socket.resume(); // reads whatever is answered, so that the end of the connection is seen
      });
    // One stops in the middle of its headers, one in the middle of its body (no key: refused once the body is read).
    const sockets = [
      await open('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: appl'),
      await open('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model":'),
    ];
    const closed = sockets.map((s) => new Promise<void>((resolve) => s.once('close', () => resolve())));
    const started = Date.now();
    await t.gateway.shutdown('SIGTERM');
    // Node's own header time-out is 60 s: the shutdown closes them itself, once the grace period is over at the latest.
    expect(Date.now() - started).toBeLessThan(8_000);
    await Promise.all(closed);
  }, 30_000);
});
