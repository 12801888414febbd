import { Client } from 'pg';
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
