import { Client } from 'pg';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

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
    await new Promise((r) => setTimeout(r, 150));

    const shutdown = t.gateway.shutdown('SIGTERM');
    await new Promise((r) => setTimeout(r, 20));
    const refused = await post({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'late' }] }).catch(() => undefined);
    if (refused) {
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as any).error.code).toBe('gateway_shutting_down');
    }

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
    await new Promise((r) => setTimeout(r, 100));
    const shutdown = t.gateway.shutdown('SIGTERM');
    await new Promise((r) => setTimeout(r, 50));
    const refused = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: 'subscription { tasksUpdated { id } }' }, { next: () => resolve('accepted'), error: (err) => resolve(err), complete: () => resolve('completed') });
    });
    expect(JSON.stringify(refused)).toContain('gateway_shutting_down');
    expect((await slow).status).toBe(200);
    await client.dispose();
    await shutdown;
  });
});
